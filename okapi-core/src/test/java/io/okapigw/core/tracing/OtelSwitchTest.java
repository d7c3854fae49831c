package io.okapigw.core.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The standard OpenTelemetry configuration turns a gateway's tracing on, as it turns any
 * OpenTelemetry SDK on, where no {@code tracing.enabled} says otherwise: what operators and the
 * OpenTelemetry Operator's injection set (an exporter, an OTLP endpoint) is enough, without a
 * setting of the gateway's; {@code OTEL_SDK_DISABLED=true} turns it off; {@code tracing.enabled}
 * given wins over both. The decision is read from given variables; the whole way, to spans at the
 * collector, through the {@code otel.*} system properties, which the SDK reads as its {@code
 * OTEL_*} variables (a test cannot set those of its own process).
 */
class OtelSwitchTest {

  private final Map<String, String> before = new HashMap<>();
  private GatewayFixture gw;

  private void property(String key, String value) {
    before.putIfAbsent(key, System.getProperty(key));
    System.setProperty(key, value);
  }

  @AfterEach
  void restore() {
    if (gw != null) {
      gw.close();
    }
    before.forEach(
        (key, value) -> {
          if (value == null) {
            System.clearProperty(key);
          } else {
            System.setProperty(key, value);
          }
        });
  }

  private static boolean enabled(
      Map<String, String> settings, Map<String, String> properties, Map<String, String> variables) {
    return TracingOptions.from(Settings.of(settings), OtelVariables.of(properties, variables))
        .enabled();
  }

  private static boolean enabledBy(Map<String, String> variables) {
    return enabled(Map.of(), Map.of(), variables);
  }

  @Test
  void exporterAndEndpoint_on() {
    assertThat(
            enabledBy(
                Map.of(
                    "OTEL_TRACES_EXPORTER", "otlp",
                    "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")))
        .isTrue();
  }

  /** The OpenTelemetry Operator's injection sets the endpoint (and the service name) only. */
  @Test
  void endpointAlone_on() {
    assertThat(enabledBy(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"))).isTrue();
    assertThat(enabledBy(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://c:4318/v1/traces")))
        .isTrue();
  }

  @Test
  void exporterAlone_on_noneOff_evenWithAnEndpoint() {
    assertThat(enabledBy(Map.of("OTEL_TRACES_EXPORTER", "console"))).isTrue();
    assertThat(enabledBy(Map.of("OTEL_TRACES_EXPORTER", "none,otlp"))).isTrue();
    assertThat(
            enabledBy(
                Map.of(
                    "OTEL_TRACES_EXPORTER", "none",
                    "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")))
        .isFalse();
  }

  @Test
  void sdkDisabled_off_whateverElseIsSet() {
    assertThat(
            enabledBy(
                Map.of(
                    "OTEL_SDK_DISABLED", "TRUE",
                    "OTEL_TRACES_EXPORTER", "otlp",
                    "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")))
        .isFalse();
    assertThat(
            enabledBy(
                Map.of(
                    "OTEL_SDK_DISABLED", "false",
                    "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")))
        .isTrue();
  }

  /** Nothing configured, the gateway's default: off (the SDK would export to localhost:4318). */
  @Test
  void nothingSet_orEmptyValues_off() {
    assertThat(enabledBy(Map.of())).isFalse();
    assertThat(enabledBy(Map.of("OTEL_SDK_DISABLED", "false"))).isFalse();
    assertThat(enabledBy(Map.of("OTEL_SERVICE_NAME", "gateway"))).isFalse();
    assertThat(enabledBy(Map.of("OTEL_TRACES_EXPORTER", "", "OTEL_EXPORTER_OTLP_ENDPOINT", " ")))
        .isFalse();
  }

  @Test
  void tracingEnabledGiven_wins() {
    Map<String, String> otlp =
        Map.of(
            "OTEL_TRACES_EXPORTER", "otlp", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318");
    assertThat(enabled(Map.of("tracing.enabled", "false"), Map.of(), otlp)).isFalse();
    assertThat(
            enabled(
                Map.of("tracing.enabled", "true"), Map.of(), Map.of("OTEL_SDK_DISABLED", "true")))
        .isTrue();
  }

  /** As in the SDK: {@code -Dotel.traces.exporter} wins over {@code OTEL_TRACES_EXPORTER}. */
  @Test
  void systemProperty_winsOverItsVariable() {
    assertThat(
            enabled(
                Map.of(),
                Map.of("otel.traces.exporter", "none"),
                Map.of("OTEL_TRACES_EXPORTER", "otlp")))
        .isFalse();
    assertThat(
            enabled(
                Map.of(), Map.of("otel.exporter.otlp.endpoint", "http://collector:4318"), Map.of()))
        .isTrue();
    assertThat(
            enabled(
                Map.of(),
                Map.of("otel.sdk.disabled", "true"),
                Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")))
        .isFalse();
  }

  @Test
  void standardExporterAndEndpoint_turnTracingOn_spansReachThatEndpoint() throws Exception {
    io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
    try {
      Promise<String> exported = Promise.promise();
      HttpServer collector =
          vertx
              .createHttpServer()
              .requestHandler(
                  request ->
                      request
                          .body()
                          .onSuccess(
                              body -> {
                                exported.tryComplete(request.method() + " " + request.path());
                                request
                                    .response()
                                    .putHeader("Content-Type", "application/x-protobuf")
                                    .end();
                              }))
              .listen(0, "127.0.0.1")
              .await();
      property("otel.traces.exporter", "otlp");
      property("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + collector.actualPort());
      property("otel.bsp.schedule.delay", "10");

      gw = new GatewayFixture(GatewayOptions.from(Settings.of(Map.of())));
      gw.request().get("/_/proxy/tenants").then().statusCode(200);

      assertThat(
              exported.future().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS))
          .isEqualTo("POST /v1/traces");
    } finally {
      vertx.close().await();
    }
  }
}
