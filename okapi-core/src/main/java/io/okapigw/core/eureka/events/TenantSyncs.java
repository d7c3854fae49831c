package io.okapigw.core.eureka.events;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Lock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each Eureka tenant's entitlement syncs, one at a time across the cluster: a sync holds the
 * tenant's Vert.x shared-data lock (cluster-wide when clustered) from its read of
 * mgr-tenant-entitlements until what it read is applied, so a sync never applies an older read over
 * a newer one, whichever node each event reached and in whatever order. On this node, the syncs
 * asked for while one waits join it (a burst of events is one read), each after the request it
 * answers. A failed sync is asked for again after a pause (1 s, doubling, at most {@code
 * eureka.entitlements-refresh}). Used on one Vert.x context only.
 */
final class TenantSyncs {

  private static final Logger log = LoggerFactory.getLogger(TenantSyncs.class);
  private static final String LOCK = "okapigw.eureka.entitlements.";
  private static final long LOCK_TIMEOUT_MS = 120_000;

  /** One sync of a tenant: read its entitlements and apply them. */
  interface Sync {
    /**
     * @param revoked modules revoked since the last sync: disabled if no longer entitled
     */
    Future<Void> run(String tenant, Set<String> revoked);
  }

  /** A sync asked for, not started yet. */
  private static final class Waiting {
    private final Set<String> revoked = new HashSet<>();
    private final Promise<Void> done = Promise.promise();
  }

  private final Vertx vertx;
  private final Context context;
  private final Sync sync;
  private final Duration maxPause;
  private final Map<String, Waiting> waiting = new HashMap<>();
  private final Map<String, Future<Void>> running = new HashMap<>();
  private final Map<String, Integer> failures = new HashMap<>();
  private final Set<Long> retries = new HashSet<>();
  private boolean closed;

  TenantSyncs(Vertx vertx, Context context, Sync sync, Duration maxPause) {
    this.vertx = vertx;
    this.context = context;
    this.sync = sync;
    this.maxPause = maxPause;
  }

  /**
   * Asks for a sync of the tenant, from any thread.
   *
   * @param revoked modules revoked (an event's), or none
   * @return completes when a sync started after this request ends
   */
  Future<Void> request(String tenant, Set<String> revoked) {
    Promise<Void> done = Promise.promise();
    context.runOnContext(v -> queue(tenant, revoked).onComplete(done));
    return done.future();
  }

  private Future<Void> queue(String tenant, Set<String> revoked) {
    if (closed) {
      return Future.succeededFuture();
    }
    Waiting next = waiting.get(tenant);
    if (next == null) {
      next = new Waiting();
      next.revoked.addAll(revoked);
      waiting.put(tenant, next);
      running.getOrDefault(tenant, Future.succeededFuture()).onComplete(v -> start(tenant));
    } else {
      next.revoked.addAll(revoked);
    }
    return next.done.future();
  }

  private void start(String tenant) {
    Waiting next = waiting.remove(tenant);
    Future<Void> run =
        vertx
            .sharedData()
            .getLockWithTimeout(LOCK + tenant, LOCK_TIMEOUT_MS)
            .compose(lock -> sync.run(tenant, next.revoked).andThen(v -> release(lock)));
    running.put(tenant, run);
    run.onComplete(
        done -> {
          running.remove(tenant, run);
          if (done.failed()) {
            retry(tenant, next.revoked);
          } else {
            failures.remove(tenant);
          }
          next.done.handle(done);
        });
  }

  private static void release(Lock lock) {
    lock.release();
  }

  private void retry(String tenant, Set<String> revoked) {
    if (closed) {
      return;
    }
    int failed = failures.merge(tenant, 1, Integer::sum);
    long pause = Math.min(maxPause.toMillis(), 1000L << Math.min(failed - 1, 20));
    log.info("tenant {}: entitlements read again in {} ms", tenant, pause);
    long[] id = new long[1];
    id[0] =
        vertx.setTimer(
            pause,
            t ->
                context.runOnContext(
                    v -> {
                      retries.remove(id[0]);
                      queue(tenant, revoked);
                    }));
    retries.add(id[0]);
  }

  /** No more syncs, no more retries. */
  void close() {
    context.runOnContext(
        v -> {
          closed = true;
          retries.forEach(vertx::cancelTimer);
          retries.clear();
        });
  }
}
