package io.okapigw.it.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.demo.TraceSpan;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The receiver reads what OpenTelemetry's own OTLP/HTTP exporter (the gateway's) sends, plain and
 * gzip: ids, parents, names, kinds and attributes of every type, as Jaeger would show them.
 */
class OtlpReceiverTest {

  private static List<TraceSpan> exportTwoSpans(String compression) throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      SdkTracerProvider provider =
          SdkTracerProvider.builder()
              .addSpanProcessor(
                  SimpleSpanProcessor.create(
                      OtlpHttpSpanExporter.builder()
                          .setEndpoint(receiver.endpoint() + "/v1/traces")
                          .setCompression(compression)
                          .build()))
              .build();
      Tracer tracer = provider.get("test");
      Span server = tracer.spanBuilder("GET /hello").setSpanKind(SpanKind.SERVER).startSpan();
      String traceId = server.getSpanContext().getTraceId();
      try (Scope scope = server.makeCurrent()) {
        tracer
            .spanBuilder("handler mod-hello")
            .setSpanKind(SpanKind.CLIENT)
            .setAttribute("okapi.call.kind", "handler")
            .setAttribute("http.response.status_code", 200L)
            .setAttribute("okapi.cached", true)
            .setAttribute("ratio", 0.5)
            .startSpan()
            .end();
      }
      server.end();
      provider.forceFlush().join(30, TimeUnit.SECONDS);
      List<TraceSpan> spans = receiver.trace(traceId, s -> s.size() == 2, Duration.ofSeconds(30));
      provider.shutdown().join(30, TimeUnit.SECONDS);
      assertThat(spans).extracting(TraceSpan::id).doesNotContainNull();
      return spans.stream()
          .sorted(java.util.Comparator.comparing(s -> s.parentId() == null ? "" : s.parentId()))
          .toList();
    }
  }

  @Test
  void plainAndGzip_spansAsJaegerShowsThem() throws Exception {
    for (String compression : List.of("none", "gzip")) {
      List<TraceSpan> spans = exportTwoSpans(compression);

      TraceSpan server = spans.get(0);
      TraceSpan call = spans.get(1);
      assertThat(server.parentId()).isNull();
      assertThat(call.parentId()).isEqualTo(server.id());
      assertThat(server.name()).isEqualTo("GET /hello");
      assertThat(server.isServer()).isTrue();
      assertThat(call.name()).isEqualTo("handler mod-hello");
      assertThat(call.callKind()).isEqualTo("handler");
      assertThat(call.tags())
          .containsEntry("span.kind", "client")
          .containsEntry("http.response.status_code", "200")
          .containsEntry("okapi.cached", "true")
          .containsEntry("ratio", "0.5");
      assertThat(call.durationMicros()).isNotNegative();
    }
  }
}
