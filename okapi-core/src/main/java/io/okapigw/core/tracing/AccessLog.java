package io.okapigw.core.tracing;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JSON line per proxied request to the {@code okapigw.access} logger (its own appender in the
 * Log4j 2 configuration, plain {@code %msg}): {@code time}, {@code requestId}, {@code traceId},
 * {@code tenant}, {@code method}, {@code route} (the handler's path pattern, never the raw path or
 * query), {@code status}, {@code durationMs}, {@code upstreamMs} (waiting for modules' answers),
 * {@code bytesIn}, {@code bytesOut}, {@code auth} (the auth outcome) and {@code client} (the peer
 * address). Never a user id or a token.
 */
final class AccessLog {

  /** The logger the lines go to. */
  static final String LOGGER = "okapigw.access";

  private static final Logger log = LoggerFactory.getLogger(LOGGER);

  void write(RequestTrace trace, HttpServerRequest in, Tracing.Finished done) {
    if (!log.isInfoEnabled()) {
      return;
    }
    log.info(line(trace, in, done).encode());
  }

  static JsonObject line(RequestTrace trace, HttpServerRequest in, Tracing.Finished done) {
    long nanos = System.nanoTime() - trace.startNanos();
    SocketAddress remote = in.remoteAddress();
    JsonObject line =
        new JsonObject()
            .put("time", Instant.ofEpochMilli(trace.startMillis()).toString())
            .put("requestId", done.requestId())
            .put("traceId", trace.span().getSpanContext().isValid() ? traceId(trace) : null)
            .put("tenant", done.tenant())
            .put("method", in.method().name())
            .put("route", done.route())
            .put("status", in.response().getStatusCode())
            .put("durationMs", millis(nanos))
            .put("upstreamMs", millis(trace.upstreamNanos()))
            .put("bytesIn", in.bytesRead())
            .put("bytesOut", in.response().bytesWritten())
            .put("auth", trace.authOutcome() == null ? null : trace.authOutcome().label())
            .put("client", remote == null ? null : remote.host());
    line.getMap().values().removeIf(v -> v == null);
    return line;
  }

  private static String traceId(RequestTrace trace) {
    return trace.span().getSpanContext().getTraceId();
  }

  private static double millis(long nanos) {
    return Math.round(nanos / 1_000.0) / 1_000.0;
  }
}
