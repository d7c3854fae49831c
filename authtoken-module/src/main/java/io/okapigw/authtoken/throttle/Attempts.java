package io.okapigw.authtoken.throttle;

import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * The failed logins of one user or one client, how many since when, and (for a user) the logins
 * waiting to be checked one after another. Failures older than the timeout are forgotten (as
 * mod-login resets its count).
 */
final class Attempts {

  private int failures;
  private long lastFailure;
  private int queued;
  private Future<Void> last = Future.succeededFuture();

  /**
   * @return how long this is locked from {@code now}, in milliseconds; 0 if not
   */
  synchronized long lockedFor(long now, int limit, long timeout) {
    if (failures > 0 && now - lastFailure >= timeout) {
      failures = 0;
    }
    return limit > 0 && failures >= limit ? lastFailure + timeout - now : 0;
  }

  /**
   * Puts a login in line behind this user's others, unless {@code max} are in line already.
   *
   * @param done completed by the caller when the login's check is over
   * @return completes when the logins before it are over; {@code null} if the line is full
   */
  synchronized Future<Void> line(Promise<Void> done, int max) {
    if (queued >= max) {
      return null;
    }
    queued++;
    Future<Void> before = last;
    last = done.future();
    done.future().onComplete(v -> left());
    return before;
  }

  /**
   * @return how many logins are in line
   */
  synchronized int queued() {
    return queued;
  }

  private synchronized void left() {
    queued--;
  }

  synchronized void failed(long now) {
    failures++;
    lastFailure = now;
  }

  synchronized void succeeded() {
    failures = 0;
  }
}
