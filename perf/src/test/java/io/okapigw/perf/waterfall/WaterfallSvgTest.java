package io.okapigw.perf.waterfall;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.demo.TraceSpan;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The waterfall of a small trace as Jaeger's query API answers it. */
class WaterfallSvgTest {

  /** The desk's request (a miss: auth call, handler call), whose handler calls back (a hit). */
  private static final JsonObject TRACE =
      new JsonObject()
          .put(
              "spans",
              new JsonArray()
                  .add(
                      span(
                          "a",
                          "desk",
                          "POST /circulation/check-out-by-barcode",
                          0,
                          10_000,
                          "server",
                          null,
                          "miss"))
                  .add(
                      span(
                          "b", "a", "auth mod-authtoken-1.0.0", 100, 2_000, "client", "auth", null))
                  .add(
                      span(
                          "c",
                          "a",
                          "handler mod-circulation-1.0.0",
                          2_200,
                          7_500,
                          "client",
                          "handler",
                          null))
                  .add(span("d", "c", "GET /users/{id}", 3_000, 1_000, "server", null, "hit"))
                  .add(
                      span(
                          "e",
                          "d",
                          "handler mod-users-1.0.0",
                          3_100,
                          800,
                          "client",
                          "handler",
                          null)));

  private static JsonObject span(
      String id,
      String parent,
      String name,
      long start,
      long duration,
      String kind,
      String callKind,
      String outcome) {
    JsonArray tags = new JsonArray().add(tag("span.kind", kind));
    if (callKind != null) {
      tags.add(tag("okapi.call.kind", callKind));
    }
    if (outcome != null) {
      tags.add(tag("okapi.auth.outcome", outcome));
    }
    return new JsonObject()
        .put("spanID", id)
        .put("operationName", name)
        .put(
            "references",
            new JsonArray().add(new JsonObject().put("refType", "CHILD_OF").put("spanID", parent)))
        .put("startTime", 1_000_000_000L + start)
        .put("duration", duration)
        .put("tags", tags);
  }

  private static JsonObject tag(String key, String value) {
    return new JsonObject().put("key", key).put("type", "string").put("value", value);
  }

  @Test
  void summary_hopsAuthCallsAndTheirShare() {
    WaterfallSvg.Summary s = WaterfallSvg.summary(TraceSpan.of(TRACE));
    assertThat(s.hops()).isEqualTo(2);
    assertThat(s.authCalls()).isEqualTo(1);
    assertThat(s.totalMs()).isEqualTo(10.0);
    assertThat(s.authMs()).isEqualTo(2.0);
    assertThat(s.authShare()).isEqualTo(0.2);
    assertThat(s.hits()).isEqualTo(1);
    assertThat(s.misses()).isEqualTo(1);
  }

  @Test
  void render_oneRowPerHop_barsPlacedOnTheTimeAxis_outcomesMarked() {
    String svg = WaterfallSvg.render("t", TraceSpan.of(TRACE));
    assertThat(svg).startsWith("<svg").endsWith("</svg>\n");
    assertThat(svg).contains("<title>auth miss</title>", "<title>auth hit</title>");
    // the auth call: starts 0.1 ms into 10 ms, 2 ms long, over a 760 px chart from x=330
    assertThat(svg)
        .contains(
            "<rect x=\"337.6\" y=\"63\" width=\"152.0\" height=\"6\" fill=\"#f08c00\"><title>auth"
                + " mod-authtoken-1.0.0 2.00 ms</title>");
    assertThat(svg).contains("2 gateway hops, 10.0 ms; 1 auth calls, 2.0 ms summed (20%");
    assertThat(List.of(svg.split("fill=\"#d0d0d0\"><title>"))).hasSize(3);
  }
}
