package io.okapigw.core.deployment;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.testsupport.FreePorts;
import io.restassured.response.ValidatableResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code install?deploy=true} as Okapi runs it: a module enabled is first deployed from its launch
 * descriptor (when it has no instance), then told ({@code _tenant}), then served; one disabled or
 * replaced by an upgrade is undeployed once no tenant uses it; one that cannot be started fails the
 * install before anything is enabled.
 */
class InstallDeployTest {

  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();

  private final int firstPort = FreePorts.belowEphemeralRange();
  private final GatewayFixture gateway = start();

  private GatewayFixture start() {
    GatewayOptions defaults = GatewayOptions.defaults(0);
    return new GatewayFixture(
        defaults.withDeployment(
            defaults.deployment().withPorts(firstPort, firstPort + 3).withWaitIterations(40)));
  }

  @AfterEach
  void stop() {
    gateway.gateway().stop().await();
    gateway.close();
  }

  private static JsonObject tinyModule(String id, String launchArgs) {
    String source;
    try {
      source =
          Path.of(InstallDeployTest.class.getResource("/deployment/TinyModule.java").toURI())
              .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    JsonObject handler =
        new JsonObject()
            .put("methods", new JsonArray().add("GET"))
            .put("pathPattern", "/tiny")
            .put("permissionsRequired", new JsonArray());
    JsonObject tenant =
        new JsonObject()
            .put("id", "_tenant")
            .put("version", "1.0")
            .put("interfaceType", "system")
            .put(
                "handlers",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("methods", new JsonArray().add("POST"))
                            .put("pathPattern", "/_/tenant")));
    JsonObject module = GatewayFixture.module(id, "tiny", handler);
    module.getJsonArray("provides").add(tenant);
    return module.put(
        "launchDescriptor", new JsonObject().put("exec", JAVA + " " + source + " " + launchArgs));
  }

  private ValidatableResponse install(String tenant, String body) {
    return gateway
        .request()
        .body(body)
        .post("/_/proxy/tenants/" + tenant + "/install?deploy=true")
        .then();
  }

  @Test
  void enable_deploysThenServes_upgradeAndDisable_undeploy() {
    gateway.createTenant("t1");
    gateway.addModule(tinyModule("mod-tiny-1.0.0", "%p"));
    gateway.addModule(tinyModule("mod-tiny-1.1.0", "%p"));

    install("t1", "[{\"id\":\"mod-tiny-1.0.0\",\"action\":\"enable\"}]")
        .statusCode(200)
        .body("[0].id", equalTo("mod-tiny-1.0.0"))
        .body("[0].action", equalTo("enable"));
    gateway
        .request()
        .get("/_/discovery/modules/mod-tiny-1.0.0")
        .then()
        .statusCode(200)
        .body("$", hasSize(1))
        .body("[0].nodeId", equalTo("localhost"));
    gateway.tenant("t1").get("/tiny").then().statusCode(200).body(equalTo("tiny"));

    install("t1", "[{\"id\":\"mod-tiny-1.1.0\",\"action\":\"enable\"}]")
        .statusCode(200)
        .body("[0].from", equalTo("mod-tiny-1.0.0"));
    gateway.request().get("/_/discovery/modules/mod-tiny-1.0.0").then().statusCode(404);
    gateway
        .request()
        .get("/_/deployment/modules")
        .then()
        .body("srvcId", equalTo(List.of("mod-tiny-1.1.0")));
    gateway.tenant("t1").get("/tiny").then().statusCode(200).body(equalTo("tiny"));

    install("t1", "[{\"id\":\"mod-tiny-1.1.0\",\"action\":\"disable\"}]").statusCode(200);
    gateway.request().get("/_/discovery/modules").then().body("$", hasSize(0));
    gateway.request().get("/_/deployment/modules").then().body("$", hasSize(0));
  }

  @Test
  void moduleUsedByAnotherTenant_staysDeployed_alreadyDeployed_notDeployedTwice() {
    gateway.createTenant("t1");
    gateway.createTenant("t2");
    gateway.addModule(tinyModule("mod-tiny-1.0.0", "%p"));
    install("t1", "[{\"id\":\"mod-tiny-1.0.0\",\"action\":\"enable\"}]").statusCode(200);
    install("t2", "[{\"id\":\"mod-tiny-1.0.0\",\"action\":\"enable\"}]").statusCode(200);
    gateway.request().get("/_/deployment/modules").then().body("$", hasSize(1));

    install("t1", "[{\"id\":\"mod-tiny-1.0.0\",\"action\":\"disable\"}]").statusCode(200);

    gateway.request().get("/_/deployment/modules").then().body("$", hasSize(1));
    gateway.tenant("t2").get("/tiny").then().statusCode(200);
  }

  @Test
  void moduleThatCannotStart_failsTheInstall_nothingEnabledOrRunning() {
    gateway.createTenant("t1");
    gateway.addModule(tinyModule("mod-tiny-1.0.0", "exit %p"));

    install("t1", "[{\"id\":\"mod-tiny-1.0.0\",\"action\":\"enable\"}]")
        .statusCode(400)
        .body(
            matchesPattern(
                "http://localhost:[0-9]+/deploy Service mod-tiny-1.0.0 returned with exit code 3"));

    gateway.request().get("/_/proxy/tenants/t1/modules").then().body("$", hasSize(0));
    gateway.request().get("/_/discovery/modules").then().body("$", hasSize(0));
    gateway.request().get("/_/deployment/modules").then().body("$", hasSize(0));
  }
}
