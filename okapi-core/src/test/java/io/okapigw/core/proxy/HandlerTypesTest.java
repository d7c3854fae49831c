package io.okapigw.core.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.restassured.response.ValidatableResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
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
                                        .putHeader("Content-Type", "application/json")
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
}
