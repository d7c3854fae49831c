package io.okapigw.demo;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code demo --tracing}: a Jaeger beside the demo when its binary is built, and one check-out run
 * in a trace of its own, whose Jaeger page the demo prints.
 */
final class DemoTracing {

  private static final Logger log = LoggerFactory.getLogger(DemoTracing.class);
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  /** Jaeger's own ports: OTLP over HTTP, the UI and query API, the query's gRPC. */
  static final int OTLP_PORT = 4318;

  static final int UI_PORT = 16686;
  static final int GRPC_PORT = 16685;

  private DemoTracing() {}

  /**
   * @return Jaeger started (stopped when the process exits), or null where its binary is missing or
   *     it does not start: the gateway then exports where the {@code OTEL_*} environment says
   */
  static Jaeger startJaeger(DemoOptions options) {
    Optional<Path> binary = Jaeger.binary();
    if (binary.isEmpty()) {
      log.warn("{}: spans go where OTEL_EXPORTER_OTLP_ENDPOINT says", Jaeger.missing());
      return null;
    }
    try {
      Jaeger jaeger =
          Jaeger.start(
              binary.get(), OTLP_PORT, UI_PORT, GRPC_PORT, options.dataDir().resolve("jaeger"));
      Runtime.getRuntime().addShutdownHook(new Thread(jaeger::close, "jaeger-stop"));
      return jaeger;
    } catch (IOException e) {
      log.warn("Jaeger did not start ({}): spans go where OTEL_* says", e.getMessage());
      return null;
    }
  }

  /** Runs one check-out (on a worker: it blocks) and prints where its trace is. */
  static void showCheckOut(Vertx vertx, DemoStack stack, Jaeger jaeger) {
    vertx
        .executeBlocking(
            () -> {
              TracedCheckOut desk =
                  TracedCheckOut.login(stack.gatewayUrl(), stack.options().auth());
              String traceId = desk.checkOutAndIn(stack.data(), 0);
              if (jaeger == null) {
                return "A check-out was traced: trace id " + traceId;
              }
              int spans =
                  jaeger
                      .trace(
                          traceId,
                          t -> TraceSpan.of(t).stream().filter(TraceSpan::isServer).count() >= 34,
                          Duration.ofSeconds(30))
                      .getJsonArray("spans")
                      .size();
              String traced =
                  "A check-out was traced (%d spans: 34 gateway hops and their module calls)"
                      .formatted(spans);
              if (!jaeger.hasUi()) {
                log.warn("{}", Jaeger.noUi());
                return traced
                    + "; its spans in Jaeger's query API:\n  "
                    + jaeger.traceApiUrl(traceId);
              }
              return traced + ", open it in Jaeger's UI:\n  " + jaeger.traceUrl(traceId) + "\n";
            },
            false)
        .onSuccess(out::info)
        .onFailure(e -> log.warn("the traced check-out failed: {}", e.getMessage()));
  }
}
