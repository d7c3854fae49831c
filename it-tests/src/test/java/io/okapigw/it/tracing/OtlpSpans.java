package io.okapigw.it.tracing;

import io.okapigw.demo.TraceSpan;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the spans of an OTLP {@code ExportTraceServiceRequest} (protobuf, as the gateway's
 * http/protobuf exporter sends it) into {@link TraceSpan}s as Jaeger's query API would show them:
 * ids in hex, {@code span.kind} and the attributes as tags. Only the fields a test reads are
 * decoded (opentelemetry-proto's trace.proto: ResourceSpans 2 scope_spans, ScopeSpans 2 spans; Span
 * 1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 6 kind, 7/8 start/end time, 9 attributes); the
 * others are skipped by their wire type.
 */
final class OtlpSpans {

  /** A span and the trace it belongs to. */
  record Received(String traceId, TraceSpan span) {}

  private static final HexFormat HEX = HexFormat.of();
  private static final String[] KINDS = {
    null, "internal", "server", "client", "producer", "consumer"
  };

  private OtlpSpans() {}

  /**
   * @param request an {@code ExportTraceServiceRequest}
   * @return its spans
   * @throws IllegalArgumentException if it is no valid protobuf
   */
  static List<Received> decode(byte[] request) {
    List<Received> spans = new ArrayList<>();
    for (Reader resourceSpans : new Reader(request).messages(1)) {
      for (Reader scopeSpans : resourceSpans.messages(2)) {
        for (Reader span : scopeSpans.messages(2)) {
          spans.add(span(span));
        }
      }
    }
    return spans;
  }

  private static Received span(Reader span) {
    String traceId = null;
    String id = null;
    String parent = null;
    String name = null;
    long start = 0;
    long end = 0;
    Map<String, String> tags = new LinkedHashMap<>();
    for (Field f : span.fields()) {
      switch (f.number) {
        case 1 -> traceId = HEX.formatHex(f.bytes);
        case 2 -> id = HEX.formatHex(f.bytes);
        case 4 -> parent = f.bytes.length == 0 ? null : HEX.formatHex(f.bytes);
        case 5 -> name = f.text();
        case 6 -> {
          if (f.value > 0 && f.value < KINDS.length) {
            tags.put("span.kind", KINDS[(int) f.value]);
          }
        }
        case 7 -> start = f.value;
        case 8 -> end = f.value;
        case 9 -> attribute(new Reader(f.bytes), tags);
        default -> {}
      }
    }
    return new Received(
        traceId, new TraceSpan(id, parent, name, start / 1000, (end - start) / 1000, tags));
  }

  /** KeyValue: 1 key, 2 AnyValue (1 string, 2 bool, 3 int, 4 double). */
  private static void attribute(Reader keyValue, Map<String, String> tags) {
    String key = null;
    String value = null;
    for (Field f : keyValue.fields()) {
      if (f.number == 1) {
        key = f.text();
      } else if (f.number == 2) {
        for (Field v : new Reader(f.bytes).fields()) {
          value =
              switch (v.number) {
                case 1 -> v.text();
                case 2 -> Boolean.toString(v.value != 0);
                case 3 -> Long.toString(v.value);
                case 4 -> Double.toString(Double.longBitsToDouble(v.value));
                default -> value;
              };
        }
      }
    }
    if (key != null && value != null) {
      tags.put(key, value);
    }
  }

  /** One field: its number, and its value (varint, fixed) or its bytes (length-delimited). */
  private record Field(int number, long value, byte[] bytes) {
    String text() {
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  /** The protobuf wire format, just enough of it. */
  private static final class Reader {
    private final ByteBuffer in;

    Reader(byte[] bytes) {
      in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    List<Reader> messages(int number) {
      return fields().stream()
          .filter(f -> f.number == number)
          .map(f -> new Reader(f.bytes))
          .toList();
    }

    List<Field> fields() {
      List<Field> fields = new ArrayList<>();
      in.rewind();
      while (in.hasRemaining()) {
        long tag = varint();
        int number = (int) (tag >>> 3);
        int wire = (int) (tag & 7);
        switch (wire) {
          case 0 -> fields.add(new Field(number, varint(), null));
          case 1 -> fields.add(new Field(number, in.getLong(), null));
          case 2 -> {
            byte[] bytes = new byte[(int) varint()];
            in.get(bytes);
            fields.add(new Field(number, 0, bytes));
          }
          case 5 -> fields.add(new Field(number, in.getInt() & 0xffffffffL, null));
          default -> throw new IllegalArgumentException("protobuf wire type " + wire);
        }
      }
      return fields;
    }

    private long varint() {
      long value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        byte b = in.get();
        value |= (long) (b & 0x7f) << shift;
        if (b >= 0) {
          return value;
        }
      }
      throw new IllegalArgumentException("protobuf varint longer than 10 bytes");
    }
  }
}
