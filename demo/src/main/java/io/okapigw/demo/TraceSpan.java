package io.okapigw.demo;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One span of a trace as Jaeger's query API answers it ({@link Jaeger#trace}).
 *
 * @param id its span id
 * @param parentId the span it is a child of ({@code CHILD_OF}), or null for a root
 * @param name its operation name: {@code POST /circulation/check-out-by-barcode}, {@code auth
 *     mod-authtoken-1.0.0}
 * @param startMicros its start, µs since the epoch
 * @param durationMicros its duration in µs
 * @param tags its attributes as text ({@code span.kind}, {@code okapi.auth.outcome}, ...)
 */
public record TraceSpan(
    String id,
    String parentId,
    String name,
    long startMicros,
    long durationMicros,
    Map<String, String> tags) {

  /**
   * @return the spans of a trace of Jaeger's query API, by start time
   */
  public static List<TraceSpan> of(JsonObject trace) {
    List<TraceSpan> spans = new ArrayList<>();
    for (Object o : trace.getJsonArray("spans")) {
      JsonObject span = (JsonObject) o;
      Map<String, String> tags = new HashMap<>();
      for (Object t : span.getJsonArray("tags", new JsonArray())) {
        JsonObject tag = (JsonObject) t;
        tags.put(tag.getString("key"), String.valueOf(tag.getValue("value")));
      }
      spans.add(
          new TraceSpan(
              span.getString("spanID"),
              parent(span.getJsonArray("references", new JsonArray())),
              span.getString("operationName"),
              span.getLong("startTime"),
              span.getLong("duration"),
              tags));
    }
    spans.sort(Comparator.comparingLong(TraceSpan::startMicros));
    return spans;
  }

  private static String parent(JsonArray references) {
    for (Object r : references) {
      JsonObject ref = (JsonObject) r;
      if ("CHILD_OF".equals(ref.getString("refType"))) {
        return ref.getString("spanID");
      }
    }
    return null;
  }

  /**
   * @return whether the gateway served this span's request ({@code span.kind} server)
   */
  public boolean isServer() {
    return "server".equals(tags.get("span.kind"));
  }

  /**
   * @return the module call's kind ({@code handler}, {@code auth}, {@code filter}, {@code system}),
   *     or null for a server span
   */
  public String callKind() {
    return tags.get("okapi.call.kind");
  }

  /**
   * @return the auth outcome of a server span ({@code hit}, {@code miss}, {@code coalesced}, {@code
   *     stale}, {@code denied}), or null
   */
  public String authOutcome() {
    return tags.get("okapi.auth.outcome");
  }
}
