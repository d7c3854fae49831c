package io.okapigw.it.deployment;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.it.Jars;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.TestPostgres;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real FOLIO storage module on RMB, mod-configuration v5.10.0, deployed by the gateway from the
 * launch descriptor FOLIO's build writes ({@code target/DeploymentDescriptor.json}: {@code java
 * -Dport=%p -jar ...-fat.jar -Dhttp.port=%p}), its database from {@code /_/env} ({@code DB_*}),
 * enabled with {@code install?deploy=true&tenantParameters=loadReference=true} (its {@code _tenant}
 * 2.0 job creates the tenant's schema), answering through the gateway, undeployed when disabled.
 * Needs mod-configuration built from source ({@code -Dokapigw.mod-configuration=DIR}, default
 * {@code /work/anchor/mod-configuration}; ../shared/ENVIRONMENT.md); skipped with a notice without
 * it.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RmbModuleDeploymentTest {

  private static final Path SOURCE =
      Path.of(System.getProperty("okapigw.mod-configuration", "/work/anchor/mod-configuration"));

  @Test
  void modConfiguration_deployedByInstall_answersThroughTheGateway() throws Exception {
    Path descriptor = SOURCE.resolve("target/ModuleDescriptor.json");
    Path jar = SOURCE.resolve("mod-configuration-server/target/mod-configuration-server-fat.jar");
    if (!Files.exists(descriptor) || !Files.exists(jar)) {
      String notice =
          "NOTICE: mod-configuration is not built at "
              + SOURCE
              + ": the RMB deployment test is skipped (-Dokapigw.mod-configuration=DIR)";
      System.err.println(notice);
      Assumptions.abort(notice);
    }
    JsonObject module = new JsonObject(Files.readString(descriptor));
    String id = module.getString("id");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    module.put(
        "launchDescriptor",
        new JsonObject()
            .put("exec", java + " -Xmx256m -Dport=%p -jar " + jar + " -Dhttp.port=%p")
            .put("waitIterations", 60));
    PgConnectOptions db = PgConnectOptions.fromUri(TestPostgres.get().createDatabase());
    int ports = FreePorts.belowEphemeralRange();
    StandaloneGateway gateway = StandaloneGateway.deploying(Jars.gateway(), ports, ports + 3);
    try {
      RequestSpecification admin = given().baseUri(gateway.url());
      admin.body(module.encode()).post("/_/proxy/modules").then().statusCode(201);
      env(gateway, "DB_HOST", db.getHost());
      env(gateway, "DB_PORT", Integer.toString(db.getPort()));
      env(gateway, "DB_USERNAME", db.getUser());
      env(gateway, "DB_PASSWORD", db.getPassword());
      env(gateway, "DB_DATABASE", db.getDatabase());
      given()
          .baseUri(gateway.url())
          .body("{\"id\":\"diku\"}")
          .post("/_/proxy/tenants")
          .then()
          .statusCode(201);

      given()
          .baseUri(gateway.url())
          .body(
              new JsonArray().add(new JsonObject().put("id", id).put("action", "enable")).encode())
          .queryParam("deploy", "true")
          .queryParam("tenantParameters", "loadReference=true")
          .post("/_/proxy/tenants/diku/install")
          .then()
          .statusCode(200)
          .body("[0].id", equalTo(id));
      String url =
          given()
              .baseUri(gateway.url())
              .get("/_/discovery/modules/" + id)
              .then()
              .statusCode(200)
              .body("[0].nodeId", equalTo("localhost"))
              .extract()
              .jsonPath()
              .getString("[0].url");
      assertThat(url).isEqualTo("http://localhost:" + ports);

      RequestSpecification diku = given().baseUri(gateway.url()).header("X-Okapi-Tenant", "diku");
      diku.body(
              new JsonObject()
                  .put("module", "CHECKOUT")
                  .put("configName", "other_settings")
                  .put("code", "deployed")
                  .put("value", "by the gateway")
                  .encode())
          .header("Content-Type", "application/json")
          .post("/configurations/entries")
          .then()
          .statusCode(201);
      given()
          .baseUri(gateway.url())
          .header("X-Okapi-Tenant", "diku")
          .queryParam("query", "code==deployed")
          .get("/configurations/entries")
          .then()
          .statusCode(200)
          .body("totalRecords", equalTo(1))
          .body("configs[0].value", equalTo("by the gateway"));

      given()
          .baseUri(gateway.url())
          .body(
              new JsonArray().add(new JsonObject().put("id", id).put("action", "disable")).encode())
          .post("/_/proxy/tenants/diku/install?deploy=true&purge=true")
          .then()
          .statusCode(200);
      given().baseUri(gateway.url()).get("/_/discovery/modules").then().body("size()", equalTo(0));
      assertThat(FreePorts.listening(ports)).as("mod-configuration stopped").isFalse();
    } finally {
      gateway.process().stop();
      gateway.close();
    }
  }

  private static void env(StandaloneGateway gateway, String name, String value) {
    given()
        .baseUri(gateway.url())
        .body(new JsonObject().put("name", name).put("value", value).encode())
        .post("/_/env")
        .then()
        .statusCode(201);
  }
}
