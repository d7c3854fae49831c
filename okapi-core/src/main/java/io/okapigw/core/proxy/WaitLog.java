package io.okapigw.core.proxy;

import io.okapigw.core.http.LogText;
import io.okapigw.core.http.RequestIds;
import io.okapigw.core.routing.Stage;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Locale;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Okapi's {@code log_wait_ms}: while a request waits for its answer, a line every period, {@code
 * REQID WAIT REMOTE TENANT METHOD PATH 1.234s MODULES}, as Okapi writes it (no query, no token).
 */
final class WaitLog {

  private static final Logger log = LoggerFactory.getLogger(WaitLog.class);

  private final long periodMillis;

  /**
   * @param period zero for no log
   */
  WaitLog(Duration period) {
    this.periodMillis = period.toMillis();
  }

  /**
   * Logs the request every period until {@code answered} completes; called on the request's event
   * loop, whose Vert.x runs the timer.
   *
   * @param startNanos when the request arrived ({@link System#nanoTime()})
   */
  void watch(ProxyRequest request, long startNanos, Future<?> answered) {
    if (periodMillis <= 0 || answered.isComplete()) {
      return;
    }
    Vertx vertx = Vertx.currentContext().owner();
    long timer = vertx.setPeriodic(periodMillis, id -> line(request, startNanos));
    answered.onComplete(done -> vertx.cancelTimer(timer));
  }

  private static void line(ProxyRequest request, long startNanos) {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    String modules =
        request.pipeline().stages().stream()
            .map(Stage::moduleId)
            .distinct()
            .collect(Collectors.joining(" "));
    log.info(
        "{} WAIT {} {} {} {} {} {}",
        RequestIds.loggable(request.requestId()),
        request.in().remoteAddress(),
        LogText.escape(request.identity().tenant()),
        request.in().method(),
        LogText.escape(request.target().path()),
        String.format(Locale.ROOT, "%.3fs", seconds),
        modules);
  }
}
