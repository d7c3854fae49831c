package io.okapigw.core.upstream;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Optional active checks ({@code proxy.outlier.check-interval}, off by default): every interval,
 * each instance of each module the node calls is checked as {@code /_/discovery/health} checks it
 * ({@link ModuleClient#probe}), and the balancer learns from the check: a failure counts as a
 * failed call, an answer ends an ejection at once. A round starts only once the last one is over.
 */
final class ActiveChecks {

  /** How long one check may take, at most (as {@code /_/discovery/health}'s). */
  private static final Duration MAX_TIMEOUT = Duration.ofSeconds(5);

  private final Vertx vertx;
  private final ModuleClient client;
  private final long intervalMillis;
  private final Duration timeout;
  private long timer = -1;
  private boolean stopped;

  private ActiveChecks(Vertx vertx, ModuleClient client, Duration interval) {
    this.vertx = vertx;
    this.client = client;
    this.intervalMillis = interval.toMillis();
    this.timeout = interval.compareTo(MAX_TIMEOUT) < 0 ? interval : MAX_TIMEOUT;
  }

  /**
   * @return the checks, running every {@code interval}; none for a zero interval
   */
  static ActiveChecks start(Vertx vertx, ModuleClient client, Duration interval) {
    ActiveChecks checks = new ActiveChecks(vertx, client, interval);
    if (!interval.isZero()) {
      checks.next();
    }
    return checks;
  }

  private synchronized void next() {
    if (!stopped) {
      timer = vertx.setTimer(intervalMillis, id -> round().onComplete(done -> next()));
    }
  }

  /**
   * Checks every instance once.
   *
   * @return completes when every check is over; never fails
   */
  Future<Void> round() {
    List<Future<Void>> checks = new ArrayList<>();
    client
        .balancer()
        .forEachInstance(
            (moduleId, instance) ->
                checks.add(client.probe(moduleId, instance, timeout).otherwiseEmpty()));
    return Future.join(checks).otherwiseEmpty().mapEmpty();
  }

  synchronized void stop() {
    stopped = true;
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }
}
