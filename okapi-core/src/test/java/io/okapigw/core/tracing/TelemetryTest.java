package io.okapigw.core.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Settings;
import io.okapigw.core.testing.LogCapture;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
      sdk.getSdkTracerProvider().forceFlush().join(1, java.util.concurrent.TimeUnit.MINUTES);
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
  void exporterNotShipped_refusedNamingTheSettingAndTheNames() {
    assertThatThrownBy(() -> TracingOptions.from(Settings.of(Map.of("tracing.exporter", "zipkin"))))
        .hasMessageContaining("tracing.exporter must be one of otlp, console, none");
    assertThat(
            TracingOptions.from(Settings.of(Map.of("tracing.exporter", "otlp,console"))).exporter())
        .isEqualTo("otlp,console");
  }

  @Test
  void badRatio_refusedNamingTheSetting() {
    assertThatThrownBy(() -> new TracingOptions(true, "1.5", null, null, null, false, false))
        .hasMessageContaining("tracing.sampler-ratio must be a number from 0 to 1");
  }

  /** The exporters docs/settings.md names in its row of {@code tracing.exporter}. */
  private static List<String> documentedExporters() throws IOException {
    String row =
        Files.readAllLines(Path.of("../docs/settings.md")).stream()
            .filter(l -> l.startsWith("| `tracing.exporter` |"))
            .findFirst()
            .orElseThrow();
    String about = row.substring(row.lastIndexOf('|', row.length() - 2));
    Matcher names = Pattern.compile("`([a-z][a-z/-]*)`").matcher(about);
    return names.results().map(m -> m.group(1)).toList();
  }

  @Test
  void everyExporterTheDocsName_starts_consoleWritesSpansToTheLog() throws IOException {
    List<String> exporters = documentedExporters();
    assertThat(exporters).contains("otlp", "console", "none");
    for (String exporter : exporters) {
      try (LogCapture log = new LogCapture()) {
        OpenTelemetrySdk sdk =
            Telemetry.create(new TracingOptions(true, null, null, null, exporter, false, false));
        try {
          if (exporter.equals("console")) {
            sdk.getTracer("t").spanBuilder("span-for-the-console").startSpan().end();
            sdk.getSdkTracerProvider().forceFlush().join(1, TimeUnit.MINUTES);
            assertThat(log.text()).contains("span-for-the-console");
          }
        } finally {
          sdk.shutdown().join(1, TimeUnit.MINUTES);
        }
      }
    }
  }

  /**
   * {@code tracing.enabled true} wins over {@code OTEL_SDK_DISABLED=true} ({@code
   * -Dotel.sdk.disabled=true}): the SDK made is a real one, whose spans are exported.
   */
  @Test
  void tracingOn_winsOverTheSdkDisabled_spansExported() {
    String key = "otel.sdk.disabled";
    String before = System.getProperty(key);
    System.setProperty(key, "true");
    try {
      OpenTelemetrySdk sdk =
          Telemetry.create(new TracingOptions(true, null, null, null, "memory", false, false));
      try {
        MemorySpans.clear();
        sdk.getTracer("t").spanBuilder("s").startSpan().end();
        sdk.getSdkTracerProvider().forceFlush().join(1, TimeUnit.MINUTES);
        assertThat(MemorySpans.spans()).extracting(SpanData::getName).containsExactly("s");
      } finally {
        sdk.shutdown();
      }
    } finally {
      if (before == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, before);
      }
    }
  }
}
