package io.okapigw.core.tracing;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.traces.ConfigurableSpanExporterProvider;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The span exporter {@code memory} (an SDK extension, found by autoconfigure as any other is):
 * keeps what the gateway exports for the test to read, through the same configuration path as
 * {@code otlp}. Kept across the SDK's shutdown, which flushes the last spans.
 */
public final class MemorySpans implements ConfigurableSpanExporterProvider {

  private static final ConcurrentLinkedQueue<SpanData> SPANS = new ConcurrentLinkedQueue<>();

  /** Forgets every span. */
  static void clear() {
    SPANS.clear();
  }

  /**
   * @return the spans exported so far
   */
  static List<SpanData> spans() {
    return new ArrayList<>(SPANS);
  }

  @Override
  public String getName() {
    return "memory";
  }

  @Override
  public SpanExporter createExporter(ConfigProperties config) {
    return new SpanExporter() {
      @Override
      public CompletableResultCode export(Collection<SpanData> spans) {
        SPANS.addAll(spans);
        return CompletableResultCode.ofSuccess();
      }

      @Override
      public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
      }

      @Override
      public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
      }
    };
  }
}
