package io.okapigw.core.install;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.function.Supplier;

/**
 * Runs the changes of one tenant's modules one at a time across the cluster: a Vert.x
 * shared-data lock per tenant (cluster-wide when Vert.x is clustered; Hazelcast frees it when
 * the node holding it leaves the cluster). Different tenants change in parallel.
 */
final class TenantLock {

  private static final String PREFIX = "okapigw.install.";

  private final Vertx vertx;
  private final long waitMillis;

  /** @param waitMillis how long a change waits for the tenant's running one to end */
  TenantLock(Vertx vertx, long waitMillis) {
    this.vertx = vertx;
    this.waitMillis = waitMillis;
  }

  /**
   * @return {@code work}'s result, run while holding the tenant's lock; failed 409 if the lock
   *     stays taken longer than the wait
   */
  <T> Future<T> run(String tenant, Supplier<Future<T>> work) {
    return vertx.sharedData().getLockWithTimeout(PREFIX + tenant, waitMillis)
        .recover(e -> Future.failedFuture(new HttpError(409, "another install, upgrade, enable or"
            + " disable for tenant " + tenant + " is still running after " + waitMillis
            + " ms; try again later (GET /_/proxy/tenants/" + tenant + "/install lists jobs)")))
        .compose(lock -> {
          Future<T> result;
          try {
            result = work.get();
          } catch (RuntimeException e) {
            result = Future.failedFuture(e);
          }
          return result.andThen(done -> lock.release());
        });
  }
}
