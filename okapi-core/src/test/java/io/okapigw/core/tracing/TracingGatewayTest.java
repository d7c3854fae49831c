package io.okapigw.core.tracing;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.Gateway;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.LogCapture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.testsupport.Await;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Traces and access log lines of real requests through a gateway: a client request, its auth call,
 * its handler, and the handler's call back through the gateway to another module (module to
 * module), all in the client's trace with the right parents and the auth outcomes; nothing of the
 * client's credentials, user id or query string in any span.
 */
class TracingGatewayTest {

  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String CLIENT_SPAN = "00f067aa0ba902b7";
  private static final String TRACEPARENT = "00-" + TRACE + "-" + CLIENT_SPAN + "-01";
  private static final String TOKEN = "secret-token-7f3a";

  private GatewayFixture gw;
  private boolean stopped;

  /** Whether the items module passes {@code traceparent} on when it calls back (FOLIO's do not). */
  private boolean itemsPassTraceparent = true;

  /**
   * The tenant the items module's call back names: diku, the tenant of the call it serves, as a
   * module calls back; another, as a client of another tenant that learned the id in flight.
   */
  private String callBackTenant = "diku";

  /** The request id the items module calls back with, from the one it was sent. */
  private UnaryOperator<String> callBackId = id -> id;

  @AfterEach
  void close() {
    if (gw != null) {
      if (!stopped) {
        gw.gateway().stop().await();
      }
      gw.close();
    }
  }

  private TestModule[] start(GatewayOptions options) {
    MemorySpans.clear();
    gw = new GatewayFixture(options);
    TestModule auth =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx -> {
                          String token = ctx.request().getHeader("X-Okapi-Token");
                          ctx.response()
                              .setStatusCode(token == null ? 401 : 202)
                              .putHeader("X-Okapi-User-Id", "user-42")
                              .end(token == null ? "no token" : "");
                        }));
    TestModule holdings =
        TestModule.start(gw.vertx(), router -> router.route().handler(ctx -> ctx.end("holding")));
    HttpClient toGateway = gw.vertx().createHttpClient();
    TestModule items =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx -> {
                          RequestOptions call =
                              new RequestOptions()
                                  .setAbsoluteURI(gw.url() + "/holdings/1")
                                  .putHeader("X-Okapi-Tenant", callBackTenant)
                                  .putHeader(
                                      "X-Okapi-Token", ctx.request().getHeader("X-Okapi-Token"));
                          String requestId = ctx.request().getHeader("X-Okapi-Request-Id");
                          if (requestId != null) {
                            call.putHeader("X-Okapi-Request-Id", callBackId.apply(requestId));
                          }
                          String traceparent = ctx.request().getHeader("traceparent");
                          if (traceparent != null && itemsPassTraceparent) {
                            call.putHeader("traceparent", traceparent);
                          }
                          toGateway
                              .request(call)
                              .compose(r -> r.send().compose(a -> a.body()))
                              .onComplete(body -> ctx.end("item+" + body.result()));
                        }));
    gw.addModule(authModule("mod-auth-1.0.0"));
    gw.deploy("mod-auth-1.0.0", auth.url());
    gw.addModule(module("mod-items-1.0.0", "items", handler("GET", "/items/{id}")));
    gw.deploy("mod-items-1.0.0", items.url());
    gw.addModule(module("mod-holdings-1.0.0", "holdings", handler("GET", "/holdings/{id}")));
    gw.deploy("mod-holdings-1.0.0", holdings.url());
    gw.createTenant("diku");
    for (String id : List.of("mod-auth-1.0.0", "mod-items-1.0.0", "mod-holdings-1.0.0")) {
      gw.enable("diku", id);
    }
    if (!callBackTenant.equals("diku")) {
      gw.createTenant(callBackTenant);
      gw.enable(callBackTenant, "mod-auth-1.0.0");
      gw.enable(callBackTenant, "mod-holdings-1.0.0");
    }
    return new TestModule[] {items, holdings};
  }

  private static GatewayOptions traced(boolean accessLog) {
    return GatewayOptions.defaults(0)
        .withTracing(new TracingOptions(true, null, null, null, "memory", accessLog, false));
  }

  private void getItem(String path) {
    gw.tenant("diku")
        .header("X-Okapi-Token", TOKEN)
        .header("traceparent", TRACEPARENT)
        .get(path)
        .then()
        .statusCode(200);
  }

  /** Stops the gateway, which exports every span still buffered. */
  private List<SpanData> spans() {
    Gateway gateway = gw.gateway();
    gateway.stop().await();
    stopped = true;
    return MemorySpans.spans();
  }

  @Test
  void checkOutLike_oneTrace_rightParents_authOutcomes() {
    TestModule[] modules = start(traced(false));
    getItem("/items/1?secret=q");
    getItem("/items/2");
    String itemsGot = modules[0].take().header("traceparent");
    List<SpanData> all = spans();

    // the set-up's admin requests are traces of their own
    assertThat(all)
        .filteredOn(s -> !s.getTraceId().equals(TRACE))
        .allSatisfy(s -> assertThat(s.getName()).contains(" /_/"));
    List<SpanData> spans = all.stream().filter(s -> s.getTraceId().equals(TRACE)).toList();
    assertThat(spans).hasSize(10);
    Map<String, SpanData> byId =
        spans.stream().collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));
    List<SpanData> items = servers(spans, "GET /items/{id}");
    assertThat(items).hasSize(2);
    assertThat(items).allSatisfy(s -> assertThat(s.getParentSpanId()).isEqualTo(CLIENT_SPAN));
    assertThat(items)
        .extracting(s -> s.getAttributes().get(ServerSpans.AUTH))
        .containsExactly("miss", "hit");
    SpanData first = items.get(0);
    assertThat(first.getAttributes().get(TracedCalls.TENANT)).isEqualTo("diku");
    assertThat(first.getAttributes().get(TracedCalls.MODULE)).isEqualTo("mod-items-1.0.0");
    assertThat(first.getAttributes().get(TracedCalls.STATUS)).isEqualTo(200L);

    List<SpanData> underFirst = children(spans, first);
    assertThat(underFirst)
        .extracting(s -> s.getAttributes().get(TracedCalls.KIND))
        .containsExactlyInAnyOrder("auth", "handler");
    assertThat(children(spans, items.get(1)))
        .extracting(s -> s.getAttributes().get(TracedCalls.KIND))
        .containsExactly("handler");
    assertThat(underFirst).allSatisfy(s -> assertThat(s.getKind()).isEqualTo(SpanKind.CLIENT));

    // the module got the gateway's handler span as its parent, not the client's
    SpanData handlerCall =
        underFirst.stream().filter(s -> "handler".equals(kind(s))).findFirst().orElseThrow();
    assertThat(itemsGot).isEqualTo("00-" + TRACE + "-" + handlerCall.getSpanId() + "-01");
    // and its call back through the gateway is a server span under that handler call
    List<SpanData> holdings = servers(spans, "GET /holdings/{id}");
    assertThat(holdings).hasSize(2);
    assertThat(byId.get(holdings.get(0).getParentSpanId()).getAttributes().get(TracedCalls.MODULE))
        .isEqualTo("mod-items-1.0.0");
    assertThat(holdings)
        .extracting(s -> s.getAttributes().get(ServerSpans.AUTH))
        .containsExactly("miss", "hit");

    assertThat(spans)
        .allSatisfy(
            s ->
                s.getAttributes()
                    .forEach(
                        (k, v) ->
                            assertThat(String.valueOf(v))
                                .doesNotContain(TOKEN, "user-42", "secret=q", "/items/1")));
  }

  /**
   * FOLIO's modules pass on only Okapi's headers when they call another module (okapi-common's
   * {@code OkapiClient}, mod-circulation's client): no {@code traceparent}, but the {@code
   * X-Okapi-Request-Id} they were sent. Their calls back still join the trace, under the call they
   * serve.
   */
  @Test
  void moduleWithoutTraceparent_callBackJoinsTheTrace_byRequestId() {
    itemsPassTraceparent = false;
    TestModule[] modules = start(traced(false));
    getItem("/items/1");
    getItem("/items/2");
    assertThat(modules[0].take().header("traceparent")).startsWith("00-" + TRACE);
    List<SpanData> spans = spans().stream().filter(s -> s.getTraceId().equals(TRACE)).toList();
    List<SpanData> items = servers(spans, "GET /items/{id}");
    List<SpanData> holdings = servers(spans, "GET /holdings/{id}");
    assertThat(holdings).as("calls back in the client's trace").hasSize(2);
    for (int i = 0; i < 2; i++) {
      SpanData handlerCall =
          children(spans, items.get(i)).stream()
              .filter(s -> "handler".equals(kind(s)))
              .findFirst()
              .orElseThrow();
      assertThat(holdings.get(i).getParentSpanId()).isEqualTo(handlerCall.getSpanId());
      // every hop names the client's request it is made for, to find them all on any node
      String root = items.get(i).getAttributes().get(ServerSpans.REQUEST_ID);
      assertThat(items.get(i).getAttributes().get(ServerSpans.REQUEST_ROOT)).isEqualTo(root);
      assertThat(holdings.get(i).getAttributes().get(ServerSpans.REQUEST_ID))
          .startsWith(root + ";");
      assertThat(holdings.get(i).getAttributes().get(ServerSpans.REQUEST_ROOT)).isEqualTo(root);
    }
  }

  /**
   * A module that chains an element of its own after the id it was sent, as okapi-common's {@code
   * OkapiClient.newReqId} does, still calls back from the call it serves: its request joins the
   * trace under that call.
   */
  @Test
  void moduleChainingItsOwnIdElement_callBackStillJoinsTheTrace() {
    itemsPassTraceparent = false;
    callBackId = id -> id + ";654321/holdings";
    start(traced(false));
    getItem("/items/1");
    List<SpanData> spans = spans().stream().filter(s -> s.getTraceId().equals(TRACE)).toList();
    SpanData item = servers(spans, "GET /items/{id}").get(0);
    SpanData handlerCall =
        children(spans, item).stream()
            .filter(s -> "handler".equals(kind(s)))
            .findFirst()
            .orElseThrow();
    List<SpanData> holdings = servers(spans, "GET /holdings/{id}");
    assertThat(holdings).as("the call back in the client's trace").hasSize(1);
    assertThat(holdings.get(0).getParentSpanId()).isEqualTo(handlerCall.getSpanId());
  }

  /**
   * A request of another tenant with the request id of a call in flight is no call back of it: it
   * joins no trace of that call's tenant (a client of one tenant cannot put spans in another's
   * traces), whatever the id it learned or guessed.
   */
  @Test
  void anotherTenantsRequestWithAnIdInFlight_joinsNoTraceOfTheCall() {
    itemsPassTraceparent = false;
    callBackTenant = "other";
    start(traced(false));
    getItem("/items/1");
    List<SpanData> spans = spans();
    List<SpanData> holdings = servers(spans, "GET /holdings/{id}");
    assertThat(holdings).hasSize(1);
    SpanData otherTenants = holdings.get(0);
    assertThat(otherTenants.getAttributes().get(TracedCalls.TENANT)).isEqualTo("other");
    assertThat(otherTenants.getTraceId())
        .as("trace of the other tenant's request")
        .isNotEqualTo(TRACE);
    assertThat(otherTenants.getParentSpanContext().isValid()).isFalse();
  }

  /** A request id of no call in flight, or a client's own, links to nothing: a trace of its own. */
  @Test
  void requestIdOfNoCallInFlight_aTraceOfItsOwn() {
    start(traced(false));
    gw.tenant("diku")
        .header("X-Okapi-Token", TOKEN)
        .header("X-Okapi-Request-Id", "123456/items")
        .get("/holdings/1")
        .then()
        .statusCode(200);
    SpanData server = servers(spans(), "GET /holdings/{id}").get(0);
    assertThat(server.getParentSpanContext().isValid()).isFalse();
  }

  @Test
  void noToken_deniedOutcome_andNoSpansOfOthers() {
    start(traced(false));
    gw.tenant("diku").get("/items/1").then().statusCode(401);
    List<SpanData> spans = spans();
    SpanData server = servers(spans, "GET /items/{id}").get(0);
    assertThat(server.getAttributes().get(ServerSpans.AUTH)).isEqualTo("denied");
    assertThat(server.getAttributes().get(TracedCalls.STATUS)).isEqualTo(401L);
    assertThat(server.getParentSpanContext().isValid()).isFalse();
    assertThat(children(spans, server))
        .extracting(TracingGatewayTest::kind)
        .containsExactly("auth");
  }

  /**
   * A load balancer's probe of {@code /_/proxy/health} (every second or two) and the node's own
   * active checks of instances are no traces: a trace per probe would bury the requests.
   */
  @Test
  void healthProbesAndActiveChecks_noSpans() {
    GatewayOptions traced = traced(false);
    TestModule[] modules =
        start(
            traced.withUpstream(
                traced
                    .upstream()
                    .withBalance(
                        traced.upstream().balance().withCheckInterval(Duration.ofMillis(20)))));
    getItem("/items/1");
    // the instance called is now checked; checks may overtake the call itself, as the balancer
    // knows the instance from the moment it chose it
    List<String> seen = new ArrayList<>();
    while (!seen.contains("/items/1") || !seen.contains("/")) {
      seen.add(modules[0].take().uri());
    }
    assertThat(seen).containsOnly("/items/1", "/").containsOnlyOnce("/items/1");
    gw.request().get("/_/proxy/health").then().statusCode(200);
    List<SpanData> spans = spans();
    assertThat(spans).extracting(TracingGatewayTest::kind).doesNotContain("health");
    assertThat(spans).extracting(SpanData::getName).noneMatch(n -> n.contains("/_/proxy/health"));
    assertThat(servers(spans, "GET /items/{id}")).hasSize(1);
  }

  /**
   * Okapi's {@code trace_headers}: one {@code X-Okapi-Trace} line per module call, as Okapi 6.1.5
   * and 7.0.7 write it (checked side by side): method, module, instance URL and path with the query
   * as {@code ..}, status, microseconds; the gateway's own module by its path alone.
   */
  @Test
  void traceHeaders_oneLinePerModuleCall_asOkapiWritesThem() {
    TestModule[] modules =
        start(
            GatewayOptions.defaults(0)
                .withTracing(new TracingOptions(false, null, null, null, null, false, true)));
    List<String> lines =
        gw.tenant("diku")
            .header("X-Okapi-Token", TOKEN)
            .get("/items/1?secret=q")
            .then()
            .statusCode(200)
            .extract()
            .headers()
            .getValues("X-Okapi-Trace");
    String items = modules[0].url();
    assertThat(lines)
        .hasSize(2)
        .anySatisfy(
            l ->
                assertThat(l)
                    .matches(
                        "GET mod-auth-1\\.0\\.0 http://127\\.0\\.0\\.1:\\d+/items/1\\.\\. : 202 \\d+us"))
        .anySatisfy(
            l ->
                assertThat(l)
                    .matches(
                        "GET mod-items-1\\.0\\.0 "
                            + Pattern.quote(items)
                            + "/items/1\\.\\. : 200 \\d+us"));
    assertThat(String.join("\n", lines)).doesNotContain("secret", TOKEN);

    assertThat(
            gw.request()
                .get("/_/proxy/tenants")
                .then()
                .statusCode(200)
                .extract()
                .headers()
                .getValues("X-Okapi-Trace"))
        .singleElement()
        .asString()
        .matches("GET okapi-\\S+ /_/proxy/tenants : 200 \\d+us");
    // Okapi writes no line for its own module's refusals
    assertThat(
            gw.request()
                .get("/_/proxy/tenants/nobody")
                .then()
                .statusCode(404)
                .extract()
                .header("X-Okapi-Trace"))
        .isNull();
  }

  @Test
  void traceHeadersOff_none() {
    start(traced(false));
    assertThat(
            gw.tenant("diku")
                .header("X-Okapi-Token", TOKEN)
                .get("/items/1")
                .then()
                .statusCode(200)
                .extract()
                .header("X-Okapi-Trace"))
        .isNull();
  }

  @Test
  void tracingOff_clientTraceparentPassedAsToday_noSpans() {
    TestModule[] modules = start(GatewayOptions.defaults(0));
    getItem("/items/1");
    assertThat(modules[0].take().header("traceparent")).isEqualTo(TRACEPARENT);
    assertThat(spans()).isEmpty();
  }

  @Test
  void accessLog_oneJsonLinePerRequest_withTraceIdAndOutcome_noSecrets() {
    try (LogCapture log = new LogCapture()) {
      start(traced(true));
      getItem("/items/1?secret=q");
      awaitLines(log, 2);
      List<JsonObject> lines =
          log.lines().stream()
              .filter(
                  l ->
                      l.contains("\"route\":\"/items/{id}\"")
                          || l.contains("\"route\":\"/holdings/{id}\""))
              .map(l -> new JsonObject(l.substring(l.indexOf('{'))))
              .toList();
      JsonObject items =
          lines.stream().filter(l -> l.getString("route").equals("/items/{id}")).findFirst().get();
      assertThat(items.getString("tenant")).isEqualTo("diku");
      assertThat(items.getString("method")).isEqualTo("GET");
      assertThat(items.getInteger("status")).isEqualTo(200);
      assertThat(items.getString("auth")).isEqualTo("miss");
      assertThat(items.getString("traceId")).isEqualTo(TRACE);
      assertThat(items.getString("client")).isEqualTo("127.0.0.1");
      assertThat(items.getDouble("upstreamMs")).isPositive();
      assertThat(items.getDouble("durationMs"))
          .isGreaterThanOrEqualTo(items.getDouble("upstreamMs"));
      assertThat(items.getLong("bytesOut")).isEqualTo((long) "item+holding".length());
      assertThat(items.getString("requestId")).isNotEmpty();
      assertThat(lines).hasSize(2);
      assertThat(log.text()).doesNotContain(TOKEN, "user-42", "secret=q");
    }
  }

  /** Waits for {@code n} lines of requests to /items and /holdings. */
  private static void awaitLines(LogCapture log, int n) {
    Await.until(
        () ->
            log.lines().stream()
                    .filter(
                        l ->
                            l.contains("\"route\":\"/items/{id}\"")
                                || l.contains("\"route\":\"/holdings/{id}\""))
                    .count()
                >= n,
        n + " access log lines");
  }

  private static String kind(SpanData s) {
    return s.getAttributes().get(TracedCalls.KIND);
  }

  private static List<SpanData> servers(List<SpanData> spans, String name) {
    return spans.stream()
        .filter(s -> s.getKind() == SpanKind.SERVER && s.getName().equals(name))
        .sorted((a, b) -> Long.compare(a.getStartEpochNanos(), b.getStartEpochNanos()))
        .toList();
  }

  private static List<SpanData> children(List<SpanData> spans, SpanData parent) {
    return spans.stream().filter(s -> s.getParentSpanId().equals(parent.getSpanId())).toList();
  }
}
