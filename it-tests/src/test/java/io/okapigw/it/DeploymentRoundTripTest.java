package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.data.CirculationData;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.TestPostgres;
import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A module Okapi 6.1.5 deployed on PostgreSQL (its {@code deployments} table keeps the instance,
 * {@code nodeId} and launch descriptor) is started again by the gateway put on Okapi's database
 * with Okapi's command line, stopped when the gateway stops, started again at the gateway's next
 * start, and by Okapi when it takes the database back, as Okapi restarts the deployments it stored.
 * Without Okapi (skipped with a notice) the gateway deploys the module itself.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class DeploymentRoundTripTest {

  private static final String MODULE = "mod-users";

  @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.NEVER)
  Path dir;

  @Test
  void deployedModule_startedAgainByWhoeverRunsOnTheDatabase() throws IOException {
    int port = FreePorts.belowEphemeralRange();
    int modules = FreePorts.belowEphemeralRange();
    OkapiCommandLine line =
        OkapiCommandLine.dev(TestPostgres.get().createDatabase(), port)
            .with("port_start", Integer.toString(modules))
            .with("port_end", Integer.toString(modules + 3));
    Optional<ReferenceOkapi> okapi = ReferenceOkapi.v615();
    JsonObject descriptor = descriptor();
    String instId;
    if (okapi.isPresent()) {
      try (ReferenceOkapi.Running first = okapi.get().start(line, dir)) {
        instId = deploy(first.url(), descriptor);
        awaitAnswering(first.url(), descriptor.getString("id"));
        first.stop();
      }
    } else {
      System.err.println("NOTICE: Okapi 6.1.5 not built: the gateway deploys the module itself");
      try (ReferenceOkapi.Running gateway = startGateway(line)) {
        instId = deploy(gateway.url(), descriptor);
        gateway.stop();
      }
    }
    assertThat(FreePorts.listening(modules)).as("stopped with the node that started it").isFalse();

    for (int start = 0; start < 2; start++) {
      try (ReferenceOkapi.Running gateway = startGateway(line)) {
        String url;
        try {
          url = awaitAnswering(gateway.url(), descriptor.getString("id"));
        } catch (AssertionError e) {
          System.out.println(
              "the gateway's output:\n"
                  + gateway.process().output()
                  + "\ndiscovery: "
                  + given().baseUri(gateway.url()).get("/_/discovery/modules").asString());
          throw e;
        }
        assertThat(instance(gateway.url(), descriptor.getString("id")).getString("instId"))
            .isEqualTo(instId);
        assertThat(url).startsWith("http://localhost:");
        gateway.stop();
      }
      assertThat(FreePorts.listening(modules)).as("stopped with the gateway").isFalse();
    }

    if (okapi.isPresent()) {
      try (ReferenceOkapi.Running back = okapi.get().start(line, dir)) {
        awaitAnswering(back.url(), descriptor.getString("id"));
        back.stop();
      }
    }
  }

  private ReferenceOkapi.Running startGateway(OkapiCommandLine line) throws IOException {
    var gateway =
        line.launch(Path.of(System.getProperty("java.home"), "bin", "java"), Jars.gateway(), dir);
    gateway.awaitReady(line.url() + "/_/proxy/health", Duration.ofMinutes(2));
    return new ReferenceOkapi.Running(gateway, line.url());
  }

  /** mod-users of the simulated modules, with a launch descriptor running it from its jar. */
  private static JsonObject descriptor() {
    JsonObject module =
        CirculationModules.descriptors(CirculationData.Options.defaults()).stream()
            .filter(d -> d.getString("id").startsWith(MODULE + "-"))
            .findFirst()
            .orElseThrow();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path jar = Jars.root().resolve("folio-modules/target/folio-modules-fat.jar");
    return module.put(
        "launchDescriptor",
        new JsonObject()
            .put(
                "exec",
                java
                    + " -Xmx96m -jar "
                    + jar
                    + " module --name "
                    + MODULE
                    + " --host 127.0.0.1 --port %p --patrons 10 --items 10"));
  }

  /** Registers the module and deploys it on the node, as Okapi's discovery does. */
  private static String deploy(String node, JsonObject descriptor) {
    given().baseUri(node).body(descriptor.encode()).post("/_/proxy/modules").then().statusCode(201);
    return given()
        .baseUri(node)
        .body(
            new JsonObject()
                .put("srvcId", descriptor.getString("id"))
                .put("nodeId", "localhost")
                .encode())
        .post("/_/discovery/modules")
        .then()
        .statusCode(201)
        .extract()
        .jsonPath()
        .getString("instId");
  }

  private static JsonObject instance(String node, String srvcId) {
    return new JsonArray(
            given()
                .baseUri(node)
                .get("/_/discovery/modules/" + srvcId)
                .then()
                .statusCode(200)
                .extract()
                .asString())
        .getJsonObject(0);
  }

  /**
   * @return the instance's URL once its module answers there (a node starts the modules it deployed
   *     again once it listens)
   */
  private static String awaitAnswering(String node, String srvcId) {
    Await.until(
        JavaProcess.PATIENCE,
        () ->
            given()
                .baseUri(node)
                .get("/_/discovery/health/" + srvcId)
                .then()
                .extract()
                .asString()
                .contains("\"healthStatus\" : true"),
        srvcId + " answering at the URL " + node + " has for it");
    return given()
        .baseUri(node)
        .get("/_/discovery/modules/" + srvcId)
        .then()
        .extract()
        .jsonPath()
        .getString("[0].url");
  }
}
