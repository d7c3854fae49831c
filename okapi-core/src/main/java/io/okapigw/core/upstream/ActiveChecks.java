package io.okapigw.core.upstream;

import io.okapigw.core.upstream.balance.BalanceOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The checks of module instances, as {@code /_/discovery/health} checks them ({@link
 * ModuleClient#probe}), that the balancer learns from: a failure counts as a failed call, an answer
 * ends an ejection at once and takes a stalled instance back. Every second, each instance that has
 * stalled ({@code proxy.outlier.stall}: calls in flight, none answered), active checks on or off;
 * and, only with {@code proxy.outlier.check-interval} (off by default), every interval each
 * instance of each module the node calls. A round starts only once the last one is over.
 */
final class ActiveChecks {

  /** How long one check may take, at most (as {@code /_/discovery/health}'s). */
  private static final Duration MAX_TIMEOUT = Duration.ofSeconds(5);

  /** How often stalled instances are checked. */
  static final Duration STALLED_INTERVAL = Duration.ofSeconds(1);

  private final ModuleClient client;
  private final Duration timeout;
  private final Duration stalledTimeout;
  private final Loop all;
  private final Loop stalled;

  private ActiveChecks(Vertx vertx, ModuleClient client, BalanceOptions options) {
    this.client = client;
    this.timeout = atMostMax(options.checkInterval());
    this.stalledTimeout = atMostMax(options.stall());
    this.all = new Loop(vertx, options.checkInterval(), this::round);
    this.stalled =
        new Loop(
            vertx, options.stall().isZero() ? Duration.ZERO : STALLED_INTERVAL, this::stalledRound);
  }

  /**
   * @return the checks: of stalled instances every second (unless {@code proxy.outlier.stall} is
   *     0), of every instance every {@code proxy.outlier.check-interval} (unless 0)
   */
  static ActiveChecks start(Vertx vertx, ModuleClient client, BalanceOptions options) {
    ActiveChecks checks = new ActiveChecks(vertx, client, options);
    checks.all.next();
    checks.stalled.next();
    return checks;
  }

  private static Duration atMostMax(Duration timeout) {
    return timeout.compareTo(MAX_TIMEOUT) < 0 ? timeout : MAX_TIMEOUT;
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

  /**
   * Checks every stalled instance once, each given {@code proxy.outlier.stall} (at most 5 s) to
   * answer.
   *
   * @return completes when every check is over; never fails
   */
  Future<Void> stalledRound() {
    List<Future<Void>> checks = new ArrayList<>();
    client
        .balancer()
        .forEachStalled(
            (moduleId, instance) ->
                checks.add(client.probe(moduleId, instance, stalledTimeout).otherwiseEmpty()));
    return Future.join(checks).otherwiseEmpty().mapEmpty();
  }

  void stop() {
    all.stop();
    stalled.stop();
  }

  /** Rounds every interval, each once the last is over; none for a zero interval. */
  private static final class Loop {

    private final Vertx vertx;
    private final long intervalMillis;
    private final Supplier<Future<Void>> round;
    private long timer = -1;
    private boolean stopped;

    Loop(Vertx vertx, Duration interval, Supplier<Future<Void>> round) {
      this.vertx = vertx;
      this.intervalMillis = interval.toMillis();
      this.round = round;
    }

    synchronized void next() {
      if (!stopped && intervalMillis > 0) {
        timer = vertx.setTimer(intervalMillis, id -> round.get().onComplete(done -> next()));
      }
    }

    synchronized void stop() {
      stopped = true;
      if (timer >= 0) {
        vertx.cancelTimer(timer);
      }
    }
  }
}
