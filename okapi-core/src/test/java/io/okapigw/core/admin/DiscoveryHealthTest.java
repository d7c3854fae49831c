package io.okapigw.core.admin;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.upstream.CallObserver;
import io.okapigw.core.upstream.ModuleClient;
import io.okapigw.core.upstream.UpstreamOptions;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /_/discovery/health[/{srvcId}[/{instId}]]}: each instance's health in Okapi's shape, from
 * a real request to it, within a bounded time (Okapi 6.1.5 waits for ever on an instance that
 * accepts and never answers).
 */
class DiscoveryHealthTest {

  private static final String MOD = "mod-a-1.0.0";

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule alive;

  @BeforeEach
  void start() {
    alive =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(ctx -> ctx.response().setStatusCode(404).end("any answer will do")));
    gw.addModule(module(MOD, "a", handler("GET", "/a")));
    deploy("up", alive.url());
    deploy("down", "http://127.0.0.1:" + closedPort());
  }

  private void deploy(String instId, String url) {
    gw.request()
        .body(new JsonObject().put("srvcId", MOD).put("instId", instId).put("url", url).encode())
        .post("/_/discovery/modules")
        .then()
        .statusCode(201);
  }

  private static int closedPort() {
    return FreePorts.closed();
  }

  @Test
  void health_allInstances_answeringOkAndRefusingFail() {
    JsonArray all =
        new JsonArray(
            gw.request().get("/_/discovery/health").then().statusCode(200).extract().asString());
    assertThat(all).hasSize(2);
    assertThat(all.getJsonObject(0))
        .isEqualTo(
            new JsonObject()
                .put("instId", "down")
                .put("srvcId", MOD)
                .put("healthMessage", all.getJsonObject(0).getString("healthMessage"))
                .put("healthStatus", false));
    assertThat(all.getJsonObject(0).getString("healthMessage"))
        .startsWith("Fail: ")
        .contains("refused");
    assertThat(all.getJsonObject(1))
        .isEqualTo(
            new JsonObject()
                .put("instId", "up")
                .put("srvcId", MOD)
                .put("healthMessage", "OK")
                .put("healthStatus", true));
  }

  @Test
  void health_oneModuleOrInstance_itsHealthOnly() {
    gw.request()
        .get("/_/discovery/health/" + MOD)
        .then()
        .statusCode(200)
        .body("instId", containsInAnyOrder("up", "down"));
    gw.request()
        .get("/_/discovery/health/" + MOD + "/up")
        .then()
        .statusCode(200)
        .body("instId", equalTo("up"))
        .body("healthStatus", equalTo(true));
  }

  @Test
  void health_unknownModuleOrInstance_404() {
    gw.request()
        .get("/_/discovery/health/mod-nope-1.0.0")
        .then()
        .statusCode(404)
        .body(containsString("mod-nope-1.0.0"));
    gw.request()
        .get("/_/discovery/health/" + MOD + "/nope")
        .then()
        .statusCode(404)
        .body(containsString(MOD + "/nope"));
  }

  @Test
  void check_instanceAcceptsButNeverAnswers_failsWithinTheTimeoutAndClosesTheConnection()
      throws Exception {
    Promise<Void> closed = Promise.promise();
    NetServer silent =
        gw.vertx()
            .createNetServer()
            .connectHandler(socket -> socket.closeHandler(v -> closed.tryComplete()))
            .listen(0, "127.0.0.1")
            .await();
    ModuleClient modules =
        ModuleClient.create(gw.vertx(), UpstreamOptions.defaults(), CallObserver.NONE);
    InstanceHealth health = new InstanceHealth(modules, Duration.ofMillis(300));
    DeploymentDescriptor instance =
        new DeploymentDescriptor(MOD, "silent", "http://127.0.0.1:" + silent.actualPort());
    Promise<JsonObject> checked = Promise.promise();
    gw.vertx()
        .runOnContext(
            v ->
                health
                    .check(List.of(instance), false)
                    .map(list -> list.get(0))
                    .onComplete(checked));
    // the message names the check's own 300 ms timeout, not the 60 s proxy.idle-timeout; no
    // stopwatch: on a busy machine the answer comes later than 300 ms, the timeout is still its
    JsonObject answer = checked.future().await(1, TimeUnit.MINUTES);
    assertThat(answer)
        .isEqualTo(
            new JsonObject()
                .put("instId", "silent")
                .put("srvcId", MOD)
                .put("healthMessage", "Fail: no answer within 300 ms")
                .put("healthStatus", false));
    closed.future().await(1, TimeUnit.MINUTES);
    modules.close().await();
  }
}
