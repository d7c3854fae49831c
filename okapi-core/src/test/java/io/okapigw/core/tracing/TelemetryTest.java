package io.okapigw.core.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;

/**
 * The SDK's configuration: the gateway's defaults, overridden by the standard {@code OTEL_*}
 * variables and {@code otel.*} properties (autoconfigure's own reading), overridden by a {@code
 * tracing.*} setting given.
 */
class TelemetryTest {

  @Test
  void defaults_serviceNameOtlpHttpTracesOnly() {
    assertThat(Telemetry.defaults())
        .containsEntry("otel.service.name", "okapi-gateway")
        .containsEntry("otel.exporter.otlp.protocol", "http/protobuf")
        .containsEntry("otel.metrics.exporter", "none")
        .containsEntry("otel.logs.exporter", "none");
  }

  @Test
  void settingsGiven_winAndNameTheTracesPath_grpcKeepsTheEndpoint() {
    TracingOptions options =
        new TracingOptions(
            true, "0.25", "http://collector:4318/", "api-key=s3", "otlp", false, false);
    assertThat(Telemetry.explicit(options, "http/protobuf"))
        .containsEntry("otel.exporter.otlp.traces.endpoint", "http://collector:4318/v1/traces")
        .containsEntry("otel.traces.sampler", "parentbased_traceidratio")
        .containsEntry("otel.traces.sampler.arg", "0.25")
        .containsEntry("otel.exporter.otlp.headers", "api-key=s3")
        .containsEntry("otel.traces.exporter", "otlp");
    assertThat(Telemetry.explicit(options, "grpc"))
        .containsEntry("otel.exporter.otlp.traces.endpoint", "http://collector:4318/");
    assertThat(Telemetry.explicit(TracingOptions.defaults(), "http/protobuf")).isEmpty();
  }

  @Test
  void standardOtelProperty_isHonoured_overTheGatewaysDefault() {
    String key = "otel.service.name";
    String before = System.getProperty(key);
    System.setProperty(key, "library-gateway");
    OpenTelemetrySdk sdk =
        Telemetry.create(new TracingOptions(true, null, null, null, "memory", false, false));
    try {
      MemorySpans.clear();
      sdk.getTracer("t").spanBuilder("s").startSpan().end();
      sdk.getSdkTracerProvider().forceFlush().join(5, java.util.concurrent.TimeUnit.SECONDS);
      SpanData span = MemorySpans.spans().get(0);
      assertThat(span.getResource().getAttribute(AttributeKey.stringKey("service.name")))
          .isEqualTo("library-gateway");
    } finally {
      sdk.shutdown();
      if (before == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, before);
      }
    }
  }

  @Test
  void badRatio_refusedNamingTheSetting() {
    assertThatThrownBy(() -> new TracingOptions(true, "1.5", null, null, null, false, false))
        .hasMessageContaining("tracing.sampler-ratio must be a number from 0 to 1");
  }
}
