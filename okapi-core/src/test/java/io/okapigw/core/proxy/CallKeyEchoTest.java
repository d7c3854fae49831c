package io.okapigw.core.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.restassured.response.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The call key in {@code X-Okapi-Request-Id} never reaches a client: a module that echoes the id it
 * got (in {@code X-Okapi-Request-Id}, in a header of its own, in a {@code Location}) hands the
 * client the id without the key, or not the header at all, on every path a module's answer headers
 * take to the client (a streamed handler, a handler read whole, a pre filter's answer that stops
 * the pipeline); the module itself still gets the key, to send back. (On ac01f53 the headers passed
 * as the module wrote them.)
 */
class CallKeyEchoTest {

  private static final Pattern KEYED = Pattern.compile("~[A-Za-z0-9_-]{32}");

  private final GatewayFixture gateway = new GatewayFixture();
  private final TestModule module =
      TestModule.start(
          gateway.vertx(),
          router ->
              router
                  .route()
                  .handler(
                      ctx -> {
                        String id = ctx.request().getHeader("X-Okapi-Request-Id");
                        if (ctx.request().path().contains("stop")) {
                          ctx.response().putHeader("X-Okapi-Stop", "true");
                        }
                        ctx.response()
                            .putHeader("X-Okapi-Request-Id", id)
                            .putHeader("X-Echo", "id " + id)
                            .putHeader("Location", "/items/1?rid=" + id)
                            .putHeader("X-Plain", "kept")
                            .end("ok");
                      }));

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

  private void assertNoKey(Response answer, String segment) {
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.header("X-Okapi-Request-Id"))
        .as("the id without its key, as Okapi writes one")
        .matches("\\d{6}/" + segment);
    assertThat(answer.header("X-Echo")).as("a header carrying the key").isNull();
    assertThat(answer.header("Location")).as("a header carrying the key").isNull();
    assertThat(answer.header("X-Plain")).isEqualTo("kept");
    answer.headers().forEach(h -> assertThat(KEYED.matcher(h.getValue()).find()).isFalse());
  }

  @Test
  void handlerEchoesTheId_streamedOrReadWhole_clientGetsTheIdWithoutTheKey_moduleGotTheKey() {
    gateway.createTenant("t1");
    gateway.install(
        "t1",
        GatewayFixture.module(
            "mod-a-1.0.0",
            "a",
            entry("/streamed", "request-response"),
            entry("/whole", "request-response-1.0"),
            entry("/only", "request-only")),
        module.url());

    for (String path : new String[] {"streamed", "whole", "only"}) {
      assertNoKey(gateway.tenant("t1").body("b").post("/" + path), path);
      assertThat(module.take().header("X-Okapi-Request-Id"))
          .as("what the module must send back when it calls back")
          .containsPattern(KEYED.pattern() + "$");
    }
  }

  @Test
  void preFilterStopsThePipelineWithItsAnswer_echoedIdWithoutTheKey() {
    gateway.createTenant("t1");
    JsonObject descriptor = GatewayFixture.module("mod-h-1.0.0", "h", entry("/stop", "headers"));
    descriptor.put(
        "filters",
        new JsonArray()
            .add(
                new JsonObject()
                    .put("methods", new JsonArray().add("*"))
                    .put("pathPattern", "/stop")
                    .put("phase", "pre")
                    .put("type", "request-response")));
    gateway.install("t1", descriptor, module.url());

    assertNoKey(gateway.tenant("t1").get("/stop"), "stop");
  }
}
