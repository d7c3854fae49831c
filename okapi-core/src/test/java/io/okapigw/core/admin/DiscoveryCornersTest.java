package io.okapigw.core.admin;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.instance;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.restassured.response.ValidatableResponse;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /_/discovery/modules} where Okapi 6.1.5's answers differed from ours (each checked side by
 * side, see it-tests' OkapiDifferentialTest): instances of services not registered yet, instance
 * ids shared by two services, a POST without {@code instId}, deployments on nodes ({@code nodeId}),
 * the URL as posted.
 */
class DiscoveryCornersTest {

  private static final String MOD = "mod-later-1.0.0";

  private GatewayFixture gw;
  private TestModule server;

  @BeforeEach
  void start() {
    gw = new GatewayFixture();
    server =
        TestModule.start(
            gw.vertx(), router -> router.route().handler(ctx -> ctx.response().end("served")));
    gw.createTenant("diku");
  }

  @AfterEach
  void stop() {
    server.close();
    gw.close();
  }

  private ValidatableResponse post(JsonObject deployment) {
    return gw.request().body(deployment.encode()).post("/_/discovery/modules").then();
  }

  private String discovery() {
    return gw.request().get("/_/discovery/modules").then().statusCode(200).extract().asString();
  }

  @Test
  void instanceOfUnregisteredService_201_servesOnceTheModuleIsRegisteredAndEnabled() {
    post(instance(MOD, "later-a", server.url()))
        .statusCode(201)
        .header("Location", "/_/discovery/modules/" + MOD + "/later-a")
        .body("srvcId", equalTo(MOD));
    gw.request()
        .get("/_/discovery/modules/" + MOD)
        .then()
        .statusCode(200)
        .body("size()", equalTo(1));

    gw.addModule(module(MOD, "later", handler("GET", "/later")));
    gw.enable("diku", MOD);

    gw.tenant("diku").get("/later").then().statusCode(200).body(equalTo("served"));
  }

  @Test
  void moduleRemoved_itsInstancesStay_andServeItAgainWhenRegisteredAgain() {
    JsonObject descriptor = module(MOD, "later", handler("GET", "/later"));
    gw.install("diku", descriptor, server.url());
    gw.request().delete("/_/proxy/tenants/diku/modules/" + MOD).then().statusCode(204);
    gw.request().delete("/_/proxy/modules/" + MOD).then().statusCode(204);

    gw.request()
        .get("/_/discovery/modules/" + MOD)
        .then()
        .statusCode(200)
        .body("size()", equalTo(1));

    gw.addModule(descriptor);
    gw.enable("diku", MOD);
    gw.tenant("diku").get("/later").then().statusCode(200).body(equalTo("served"));
  }

  @Test
  void sameInstIdUnderAnotherService_400DuplicateAndNothingChanged() {
    post(instance(MOD, "shared", server.url())).statusCode(201);
    String before = discovery();

    post(instance("mod-other-1.0.0", "shared", server.url()))
        .statusCode(400)
        .body(containsString("Duplicate instId shared"), containsString(MOD));
    post(instance(MOD, "shared", "http://127.0.0.1:1"))
        .statusCode(400)
        .body(containsString("Duplicate instId shared"));

    assertThat(discovery()).isEqualTo(before);
  }

  @Test
  void withoutInstId_400NamingItAndNothingChanged() {
    String before = discovery();
    post(new JsonObject().put("srvcId", MOD).put("url", server.url()))
        .statusCode(400)
        .body(containsString("missing instId"));
    assertThat(discovery()).isEqualTo(before);
  }

  @Test
  void nodeId_refusedAsOkapiRefusesIt_nothingRegistered() {
    gw.addModule(module(MOD, "later", handler("GET", "/later")));
    gw.addModule(new JsonObject().put("id", "mod-launch-1.0.0").put("launchDescriptor", exec()));
    String before = discovery();

    post(new JsonObject().put("srvcId", MOD).put("instId", "a").put("nodeId", "localhost"))
        .statusCode(400)
        .body(containsString("Module " + MOD + " has no launchDescriptor"));
    post(new JsonObject().put("srvcId", "mod-launch-1.0.0").put("instId", "b").put("nodeId", "x"))
        .statusCode(404)
        .body(containsString("Node x not found"));
    post(new JsonObject().put("srvcId", "mod-nope-1.0.0").put("instId", "c").put("nodeId", "x"))
        .statusCode(404)
        .body(equalTo("mod-nope-1.0.0"));
    post(new JsonObject().put("srvcId", MOD).put("instId", "d").put("descriptor", exec()))
        .statusCode(400)
        .body(containsString("needs a nodeId"));
    String node = gw.gateway().nodeId();
    post(new JsonObject().put("srvcId", "mod-launch-1.0.0").put("instId", "e").put("nodeId", node))
        .statusCode(400)
        .body(equalTo(nodeUrl(node) + "/deploy Can not deploy: No %p in the exec line"));

    assertThat(discovery()).isEqualTo(before);
  }

  /** The node's URL, as /_/discovery/nodes lists it: Okapi names it in a failed deployment. */
  private String nodeUrl(String node) {
    return gw.request().get("/_/discovery/nodes/" + node).then().extract().path("url");
  }

  private static JsonObject exec() {
    return new JsonObject().put("exec", "java -jar mod.jar");
  }

  @Test
  void deleteAll_everyInstanceGone_204EvenWhenThereIsNone() {
    post(instance(MOD, "a", server.url())).statusCode(201);
    post(instance("mod-other-1.0.0", "b", server.url())).statusCode(201);
    gw.request().delete("/_/discovery/modules").then().statusCode(204);
    gw.request().get("/_/discovery/modules").then().statusCode(200).body("size()", equalTo(0));
    gw.request().delete("/_/discovery/modules").then().statusCode(204);
  }

  @Test
  void urlWithTrailingSlash_keptAsPosted_andServed() {
    post(instance(MOD, "slash", server.url() + "/"))
        .statusCode(201)
        .body("url", equalTo(server.url() + "/"));
    gw.request()
        .get("/_/discovery/modules/" + MOD + "/slash")
        .then()
        .body("url", equalTo(server.url() + "/"));
    gw.addModule(module(MOD, "later", handler("GET", "/later")));
    gw.enable("diku", MOD);

    gw.tenant("diku").get("/later").then().statusCode(200);
    assertThat(server.drain()).extracting(r -> r.uri()).containsExactly("/later");
  }
}
