package io.okapigw.core.tracing;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The standard OpenTelemetry configuration of traces, read as the SDK's autoconfigure module reads
 * it: an {@code otel.*} system property, else its {@code OTEL_*} environment variable ({@code
 * otel.traces.exporter}, {@code OTEL_TRACES_EXPORTER}); an empty value is no value. Where no {@code
 * tracing.enabled} is given it decides whether a node traces ({@link #turnTracingOn}), as it turns
 * any OpenTelemetry SDK on or off (the OpenTelemetry environment variable specification):
 *
 * <ol>
 *   <li>{@code OTEL_SDK_DISABLED=true} (case-insensitive): off, whatever else is set;
 *   <li>{@code OTEL_TRACES_EXPORTER} naming an exporter other than {@code none}: on;
 *   <li>{@code OTEL_EXPORTER_OTLP_ENDPOINT} or {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} set: on
 *       (the exporter is then OTLP, the SDK's default; what the OpenTelemetry Operator's injection
 *       sets);
 *   <li>else off, the gateway's default: with nothing configured the SDK would export to {@code
 *       localhost:4318}, where there is seldom a collector.
 * </ol>
 */
final class OtelVariables {

  static final String SDK_DISABLED = "otel.sdk.disabled";
  static final String TRACES_EXPORTER = "otel.traces.exporter";
  static final String ENDPOINT = "otel.exporter.otlp.endpoint";
  static final String TRACES_ENDPOINT = "otel.exporter.otlp.traces.endpoint";

  private final Map<String, String> properties;
  private final Map<String, String> environment;

  private OtelVariables(Map<String, String> properties, Map<String, String> environment) {
    this.properties = properties;
    this.environment = environment;
  }

  /**
   * @return the configuration of this process: its system properties and environment
   */
  static OtelVariables system() {
    Map<String, String> properties = new HashMap<>();
    System.getProperties().forEach((k, v) -> properties.put(String.valueOf(k), String.valueOf(v)));
    return new OtelVariables(properties, System.getenv());
  }

  /**
   * @param properties system properties ({@code otel.traces.exporter})
   * @param environment environment variables ({@code OTEL_TRACES_EXPORTER})
   */
  static OtelVariables of(Map<String, String> properties, Map<String, String> environment) {
    return new OtelVariables(Map.copyOf(properties), Map.copyOf(environment));
  }

  /**
   * @return the name of what turns tracing on ({@code OTEL_TRACES_EXPORTER}, or {@code
   *     -Dotel.traces.exporter}; never its value, which may hold a credential); empty if the
   *     configuration leaves it off
   */
  Optional<String> turnTracingOn() {
    if (given(SDK_DISABLED).map(v -> v.trim().equalsIgnoreCase("true")).orElse(false)) {
      return Optional.empty();
    }
    Optional<String> exporter = given(TRACES_EXPORTER);
    if (exporter.isPresent()) {
      boolean exports =
          Stream.of(exporter.get().split(","))
              .map(String::trim)
              .anyMatch(name -> !name.isEmpty() && !name.equals("none"));
      return exports ? Optional.of(describe(TRACES_EXPORTER)) : Optional.empty();
    }
    return Stream.of(TRACES_ENDPOINT, ENDPOINT)
        .filter(key -> given(key).isPresent())
        .findFirst()
        .map(this::describe);
  }

  /**
   * @return the value of {@code key}: its system property, else its environment variable
   */
  private Optional<String> given(String key) {
    String value = properties.get(key);
    if (value == null || value.isBlank()) {
      value = environment.get(variable(key));
    }
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }

  private String describe(String key) {
    String property = properties.get(key);
    return property != null && !property.isBlank() ? "-D" + key : variable(key);
  }

  private static String variable(String key) {
    return key.toUpperCase(Locale.ROOT).replace('.', '_');
  }
}
