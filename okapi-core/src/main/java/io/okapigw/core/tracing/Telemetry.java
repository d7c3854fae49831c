package io.okapigw.core.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The OpenTelemetry SDK of a node, made by the SDK's autoconfigure module so that the standard
 * {@code OTEL_*} environment variables and {@code otel.*} system properties work as with any
 * OpenTelemetry SDK. Precedence: a {@code tracing.*} setting, then the environment, then the
 * gateway's defaults (service {@code okapi-gateway}, OTLP over {@code http/protobuf}, traces only).
 */
final class Telemetry {

  static final String SERVICE_NAME = "okapi-gateway";

  private Telemetry() {}

  /**
   * @return the SDK configured from {@code options} and the environment
   */
  static OpenTelemetrySdk create(TracingOptions options) {
    return AutoConfiguredOpenTelemetrySdk.builder()
        .addPropertiesSupplier(Telemetry::defaults)
        .addPropertiesCustomizer(
            config -> explicit(options, config.getString("otel.exporter.otlp.protocol")))
        .disableShutdownHook()
        .build()
        .getOpenTelemetrySdk();
  }

  /** What the gateway sets unless the environment says otherwise. */
  static Map<String, String> defaults() {
    return Map.of(
        "otel.service.name", SERVICE_NAME,
        "otel.traces.exporter", "otlp",
        "otel.exporter.otlp.protocol", "http/protobuf",
        "otel.metrics.exporter", "none",
        "otel.logs.exporter", "none");
  }

  /**
   * The {@code tracing.*} settings given: they win over the environment; tracing on (the SDK is
   * made only then) wins over {@code OTEL_SDK_DISABLED=true}, which would make it a no-op.
   */
  static Map<String, String> explicit(TracingOptions options, String protocol) {
    Map<String, String> properties = new HashMap<>();
    if (options.enabled()) {
      properties.put(OtelVariables.SDK_DISABLED, "false");
    }
    if (options.samplerRatio() != null) {
      properties.put("otel.traces.sampler", "parentbased_traceidratio");
      properties.put("otel.traces.sampler.arg", options.samplerRatio());
    }
    if (options.endpoint() != null) {
      properties.put(
          "otel.exporter.otlp.traces.endpoint",
          "grpc".equals(protocol) ? options.endpoint() : tracesEndpoint(options.endpoint()));
    }
    if (options.headers() != null) {
      properties.put("otel.exporter.otlp.headers", options.headers());
    }
    if (options.exporter() != null) {
      properties.put("otel.traces.exporter", options.exporter());
    }
    return properties;
  }

  /**
   * As {@code OTEL_EXPORTER_OTLP_ENDPOINT}: over http/protobuf, a base URL gets {@code /v1/traces}
   * appended; a URL that already names the path is kept.
   */
  private static String tracesEndpoint(String endpoint) {
    if (endpoint.endsWith("/v1/traces")) {
      return endpoint;
    }
    return endpoint.replaceFirst("/+$", "") + "/v1/traces";
  }

  /** Exports what is buffered and stops, waiting at most 5 s (blocking: not on an event loop). */
  static void shutdown(OpenTelemetry openTelemetry) {
    if (openTelemetry instanceof OpenTelemetrySdk sdk) {
      sdk.shutdown().join(5, TimeUnit.SECONDS);
    }
  }
}
