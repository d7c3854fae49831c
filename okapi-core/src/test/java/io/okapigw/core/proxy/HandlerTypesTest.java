package io.okapigw.core.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.restassured.response.ValidatableResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Okapi's handler types other than {@code request-response}, its {@code rewritePath} and {@code
 * X-Okapi-Stop}, answered as Okapi 6.1.5 answers them (seen side by side: a handler of type {@code
 * request-only} gives the client its own request body back with the module's status and headers,
 * {@code request-log} answers 200 with it and ignores the module, {@code request-response-1.0}
 * sends the module a {@code Content-Length}).
 */
class HandlerTypesTest {

  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private final GatewayFixture gateway = new GatewayFixture();
  private final TestModule module =
      TestModule.start(
          gateway.vertx(),
          router ->
              router
                  .route()
                  .handler(
                      ctx ->
                          ctx.request()
                              .body()
                              .onSuccess(
                                  body -> {
                                    String path = ctx.request().path();
                                    if (path.contains("stop")) {
                                      ctx.response().putHeader("X-Okapi-Stop", "true");
                                    }
                                    ctx.response()
                                        .putHeader("X-From", "module")
                                        .putHeader(
                                            "Content-Type",
                                            path.contains("html")
                                                ? "text/html"
                                                : "application/json")
                                        .putHeader(
                                            "Content-Disposition", "inline; filename=module.html")
                                        .setStatusCode(path.contains("fail") ? 418 : 200)
                                        .end(
                                            new JsonObject()
                                                .put("path", ctx.request().uri())
                                                .put("body", body.toString())
                                                .put(
                                                    "length",
                                                    ctx.request().getHeader("Content-Length"))
                                                .put(
                                                    "chunked",
                                                    ctx.request().getHeader("Transfer-Encoding"))
                                                .put(
                                                    "filter",
                                                    ctx.request().getHeader("X-Okapi-Filter"))
                                                .encode());
                                  })));

  @AfterEach
  void close() {
    module.close();
    gateway.close();
  }

  private static JsonObject entry(String pattern, String type) {
    return new JsonObject()
        .put("methods", new JsonArray().add("*"))
        .put("pathPattern", pattern)
        .put("type", type)
        .put("permissionsRequired", new JsonArray());
  }

  private void install(JsonObject... handlers) {
    gateway.createTenant("t1");
    gateway.install("t1", GatewayFixture.module("mod-a-1.0.0", "a", handlers), module.url());
  }

  private ValidatableResponse post(String path, String body) {
    return gateway.tenant("t1").body(body).post(path).then();
  }

  @Test
  void requestResponse10_moduleGetsContentLength_clientGetsItsAnswer() {
    install(entry("/r10", "request-response-1.0"));
    post("/r10", "hello")
        .statusCode(200)
        .header("X-From", "module")
        .body("body", equalTo("hello"))
        .body("length", equalTo("5"))
        .body("chunked", nullValue());
  }

  @Test
  void requestOnly_clientGetsTheModulesStatusAndHeaders_withItsOwnBody() {
    install(entry("/ro*", "request-only"));
    post("/ro", "hello").statusCode(200).header("X-From", "module").body(equalTo("hello"));
    post("/ro-fail", "hello").statusCode(418).body(equalTo("hello"));
    assertThat(module.drain()).hasSize(2);
  }

  @Test
  void requestLog_moduleGetsTheBody_clientGets200WithItsOwnBody() {
    install(entry("/rl", "request-log"));
    post("/rl", "hello").statusCode(200).header("X-From", nullValue()).body(equalTo("hello"));
    assertThat(module.take().uri()).isEqualTo("/rl");
  }

  @Test
  void headersHandler_ownBodyOnSuccess_modulesBodyOnFailure() {
    install(entry("/h*", "headers"));
    post("/h", "hello").statusCode(200).header("X-From", "module").body(equalTo("hello"));
    post("/h-fail", "hello").statusCode(418).body("body", equalTo(""));
  }

  @Test
  void rewritePath_putBeforeThePathTheModuleGets() {
    install(entry("/rw/*", "request-response").put("rewritePath", "/rewritten"));
    gateway
        .tenant("t1")
        .get("/rw/x?q=1")
        .then()
        .statusCode(200)
        .body("path", equalTo("/rewritten/rw/x?q=1"));
  }

  @Test
  void stop_fromTheHandler_postFiltersNotTold_fromAPreFilter_itsAnswerEndsThePipeline() {
    JsonObject filters =
        new JsonObject()
            .put("id", "mod-f-1.0.0")
            .put(
                "filters",
                new JsonArray()
                    .add(entry("/stop*", "headers").put("phase", "post"))
                    .add(entry("/pre*", "request-response").put("phase", "pre")));
    install(entry("/stop*", "request-response"), entry("/pre*", "request-response"));
    gateway.addModule(filters);
    gateway.deploy("mod-f-1.0.0", module.url());
    gateway.enable("t1", "mod-f-1.0.0");

    post("/stop", "hello").statusCode(200).header("X-Okapi-Stop", "true");
    assertThat(module.drain()).extracting(r -> r.uri()).containsExactly("/stop");

    post("/prestop", "hello")
        .statusCode(200)
        .header("X-Okapi-Stop", "true")
        .body("filter", equalTo("pre /pre*"));
    assertThat(module.drain()).extracting(r -> r.uri()).containsExactly("/prestop");

    post("/pre", "hello").statusCode(200).body("filter", nullValue());
    assertThat(module.drain()).extracting(r -> r.uri()).containsExactly("/pre", "/pre");
  }

  /**
   * An echo is the client's body, never the module's, so it never goes out as what the module says
   * its own body is (Okapi 6.1.5 sends the module's headers: a module answering {@code text/html}
   * made the gateway serve what a client posted as HTML on the gateway's origin): the client's own
   * {@code Content-Type}, {@code application/octet-stream} if it sent none, and {@code
   * X-Content-Type-Options: nosniff}; none of the module's {@code Content-*} headers. A {@code
   * headers} handler's failure answers the module's body, under the module's headers.
   */
  @Test
  void echoes_underTheClientsOwnContentType_nosniff_noneOfTheModulesContentHeaders()
      throws Exception {
    install(entry("/ro*", "request-only"), entry("/h*", "headers"), entry("/rl*", "request-log"));
    for (String path : new String[] {"/ro-html", "/h-html", "/rl-html"}) {
      HttpResponse<String> typed = echo(path, "text/plain");
      assertThat(typed.statusCode()).as(path).isEqualTo(200);
      assertThat(typed.body()).as(path).isEqualTo("<script>x</script>");
      assertThat(typed.headers().firstValue("Content-Type")).as(path).hasValue("text/plain");
      assertThat(typed.headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
      assertThat(typed.headers().firstValue("Content-Disposition")).as(path).isEmpty();

      HttpResponse<String> untyped = echo(path, null);
      assertThat(untyped.headers().firstValue("Content-Type"))
          .as(path)
          .hasValue("application/octet-stream");
      assertThat(untyped.headers().firstValue("X-Content-Type-Options"))
          .as(path)
          .hasValue("nosniff");
    }
    HttpResponse<String> failed = echo("/h-fail-html", "text/plain");
    assertThat(failed.statusCode()).isEqualTo(418);
    assertThat(failed.headers().firstValue("Content-Type")).hasValue("text/html");
  }

  private HttpResponse<String> echo(String path, String contentType) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(gateway.url() + path))
            .timeout(Duration.ofSeconds(30))
            .header("X-Okapi-Tenant", "t1")
            .POST(HttpRequest.BodyPublishers.ofString("<script>x</script>"));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
