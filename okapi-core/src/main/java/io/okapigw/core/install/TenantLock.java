package io.okapigw.core.install;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Lock;
import java.util.function.Supplier;

/**
 * Runs the changes of one tenant's modules one at a time across the cluster: a Vert.x shared-data
 * lock per tenant (cluster-wide when Vert.x is clustered; Hazelcast frees it when the node holding
 * it leaves the cluster). Different tenants change in parallel.
 *
 * <p>A clustered lock is waited for on a worker thread, so a change waiting behind a long install
 * tries for a short while, then again after a pause, until its wait is over: waiting changes do not
 * hold worker threads for minutes.
 */
final class TenantLock {

  private static final String PREFIX = "okapigw.install.";

  /** How long one attempt may block a worker thread. */
  static final long ATTEMPT_MILLIS = 200;

  /** The pause between two attempts. */
  static final long PAUSE_MILLIS = 300;

  private final Vertx vertx;
  private final long waitMillis;

  /**
   * @param waitMillis how long a change waits for the tenant's running one to end
   */
  TenantLock(Vertx vertx, long waitMillis) {
    this.vertx = vertx;
    this.waitMillis = waitMillis;
  }

  /**
   * @return {@code work}'s result, run while holding the tenant's lock; failed 409 if the lock
   *     stays taken longer than the wait
   */
  <T> Future<T> run(String tenant, Supplier<Future<T>> work) {
    return acquire(PREFIX + tenant, System.currentTimeMillis() + waitMillis)
        .recover(
            e ->
                Future.failedFuture(
                    new HttpError(
                        409,
                        "another install, upgrade, enable or"
                            + " disable for tenant "
                            + tenant
                            + " is still running after "
                            + waitMillis
                            + " ms; try again later (GET /_/proxy/tenants/"
                            + tenant
                            + "/install lists jobs)")))
        .compose(
            lock -> {
              Future<T> result;
              try {
                result = work.get();
              } catch (RuntimeException e) {
                result = Future.failedFuture(e);
              }
              return result.andThen(done -> lock.release());
            });
  }

  private Future<Lock> acquire(String name, long deadline) {
    long left = deadline - System.currentTimeMillis();
    return vertx
        .sharedData()
        .getLockWithTimeout(name, Math.max(1, Math.min(ATTEMPT_MILLIS, left)))
        .recover(
            e -> {
              if (deadline - System.currentTimeMillis() <= 0) {
                return Future.failedFuture(e);
              }
              Promise<Lock> again = Promise.promise();
              vertx.setTimer(
                  Math.max(1, Math.min(PAUSE_MILLIS, deadline - System.currentTimeMillis())),
                  t -> acquire(name, deadline).onComplete(again));
              return again.future();
            });
  }
}
