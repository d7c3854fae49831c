package io.okapigw.core.tracing;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a node tells operators about its requests ({@code tracing.*}, {@code access-log} and {@code
 * trace-headers} settings, declared here): OpenTelemetry traces, the JSON access log and Okapi's
 * {@code X-Okapi-Trace} headers, all off by default. The OpenTelemetry SDK's own {@code OTEL_*}
 * environment variables and {@code otel.*} system properties are honoured as by every OpenTelemetry
 * SDK; a {@code tracing.*} setting given here wins over them.
 *
 * @param enabled whether spans are made and exported ({@code tracing.enabled}, default false)
 * @param samplerRatio the share of new traces sampled, 0 to 1; null for the SDK's sampler ({@code
 *     OTEL_TRACES_SAMPLER}, by default every trace); a client's sampled flag is always followed
 * @param endpoint where spans are sent (OTLP); null for {@code OTEL_EXPORTER_OTLP_ENDPOINT} or the
 *     SDK's default
 * @param headers headers sent with every export, {@code key=value,key=value}; null for none
 * @param exporter the SDK's exporter name ({@code otlp}, {@code console}, {@code none}); null for
 *     {@code OTEL_TRACES_EXPORTER} or {@code otlp}
 * @param accessLog whether one JSON line per request goes to the {@code okapigw.access} logger
 * @param traceHeaders whether answers carry Okapi's {@code X-Okapi-Trace} headers, one per module
 *     call ({@code trace-headers}, Okapi's {@code trace_headers}; default false)
 */
public record TracingOptions(
    boolean enabled,
    String samplerRatio,
    String endpoint,
    String headers,
    String exporter,
    boolean accessLog,
    boolean traceHeaders) {

  private static final Logger log = LoggerFactory.getLogger(TracingOptions.class);

  public static final Setting<Boolean> ENABLED =
      Setting.bool("tracing.enabled", false)
          .about(
              "OpenTelemetry traces: a server span per request, a client span per module call"
                  + " (handler, filter, auth filter, system call), W3C `traceparent` accepted and"
                  + " passed on")
          .details(
              "Not given, the standard variables decide, as for any OpenTelemetry SDK:"
                  + " `OTEL_TRACES_EXPORTER` naming an exporter, or `OTEL_EXPORTER_OTLP_ENDPOINT`,"
                  + " turns tracing on, `OTEL_SDK_DISABLED=true` off. `OTEL_*` variables are"
                  + " honoured; the settings below win over them.");

  /** The span exporters a node ships: the values of {@code tracing.exporter}. */
  public static final List<String> EXPORTERS = List.of("otlp", "console", "none");

  public static final Setting<String> SAMPLER_RATIO =
      Setting.text("tracing.sampler-ratio", null, "RATIO")
          .shownDefault("all")
          .check(TracingOptions::isRatio, "a number from 0 to 1", "0..1")
          .about("share of new traces sampled (a client's sampled `traceparent` is followed)");

  public static final Setting<String> ENDPOINT =
      Setting.text("tracing.endpoint", null, "URL")
          .shownDefault("OTEL_EXPORTER_OTLP_ENDPOINT")
          .about("the OTLP endpoint spans are exported to (`http/protobuf`, port 4318 by default)");

  public static final Setting<String> HEADERS =
      Setting.text("tracing.headers", null, "K=V,...")
          .about("headers sent with every export (an API key of a hosted collector)");

  public static final Setting<String> EXPORTER =
      Setting.text("tracing.exporter", null, "NAME")
          .shownDefault("otlp")
          .check(
              TracingOptions::isExporters,
              "one of " + String.join(", ", EXPORTERS) + ", or a comma-separated list of them",
              String.join(", ", EXPORTERS))
          .about(
              "the span exporter: `otlp`, `console` (each span a line of the log, logger"
                  + " `io.opentelemetry.exporter.logging.LoggingSpanExporter`) or `none`; also"
                  + " the values of `OTEL_TRACES_EXPORTER`");

  public static final Setting<Boolean> ACCESS_LOG =
      Setting.bool("access-log", false)
          .about(
              "one JSON line per proxied request to the `okapigw.access` logger (its own"
                  + " appender): time, request and trace id, tenant, method, route, status,"
                  + " duration, upstream time, bytes, auth outcome, client address");

  public static final Setting<Boolean> TRACE_HEADERS =
      Setting.bool("trace-headers", false)
          .alias("trace_headers")
          .about(
              "Okapi's `X-Okapi-Trace` answer headers, one per module call:"
                  + " `GET mod-users-19.5.0 http://10.0.0.5:8081/users.. : 200 5214us` (the call's"
                  + " method, module, instance URL and path, its query as `..`, status and time)")
          .details(
              "They show clients the modules' addresses: for development, as in Okapi's guide"
                  + " (`-Dtrace_headers=true`), not for a gateway on the internet.");

  /** The {@code tracing.*}, {@code access-log} and {@code trace-headers} settings. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(
          ENABLED, SAMPLER_RATIO, ENDPOINT, HEADERS, EXPORTER, ACCESS_LOG, TRACE_HEADERS);

  public TracingOptions {
    if (samplerRatio != null) {
      SAMPLER_RATIO.check(samplerRatio);
    }
  }

  /**
   * @return tracing and the access log off
   */
  public static TracingOptions defaults() {
    return new TracingOptions(false, null, null, null, null, false, false);
  }

  /**
   * Reads the {@code tracing.*} and {@code access-log} settings; {@code tracing.enabled} not given,
   * the standard {@code OTEL_*} variables and {@code otel.*} properties of this process decide
   * ({@link OtelVariables}).
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  public static TracingOptions from(Settings settings) {
    return from(settings, OtelVariables.system());
  }

  static TracingOptions from(Settings settings, OtelVariables otel) {
    boolean enabled;
    if (settings.has(ENABLED)) {
      enabled = settings.get(ENABLED);
    } else {
      Optional<String> turnedOn = otel.turnTracingOn();
      turnedOn.ifPresent(
          name -> log.info("tracing on: {} is set and tracing.enabled is not given", name));
      enabled = turnedOn.isPresent();
    }
    return new TracingOptions(
        enabled,
        settings.get(SAMPLER_RATIO),
        settings.get(ENDPOINT),
        settings.get(HEADERS),
        settings.get(EXPORTER),
        settings.get(ACCESS_LOG),
        settings.get(TRACE_HEADERS));
  }

  /**
   * @return these options with tracing on, spans going to {@code newEndpoint} (null: as before)
   */
  public TracingOptions withTracing(String newEndpoint) {
    return new TracingOptions(
        true,
        samplerRatio,
        newEndpoint == null ? endpoint : newEndpoint,
        headers,
        exporter,
        accessLog,
        traceHeaders);
  }

  private static boolean isExporters(String text) {
    return text == null
        || Stream.of(text.split(",", -1)).map(String::trim).allMatch(EXPORTERS::contains);
  }

  private static boolean isRatio(String text) {
    if (text == null) {
      return true;
    }
    try {
      double ratio = Double.parseDouble(text);
      return ratio >= 0 && ratio <= 1;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
