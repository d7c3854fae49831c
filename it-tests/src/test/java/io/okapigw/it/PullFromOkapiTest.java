package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /_/proxy/pull/modules} from a real Okapi, as operators pull from FOLIO's registry:
 * the Okapi holds its own descriptor ({@code okapi-6.1.5} / {@code okapi-7.0.7}, with an {@code
 * internal} interface) and the FOLIO-like descriptors of okapi-core's {@code
 * pull/folio-registry.json} (the real mod-circulation's, {@code system} and {@code multiple}
 * interfaces, {@code replaces}, launch descriptors; two whose dependencies are unmet). The gateway
 * adds those Okapi's own pull adds, and neither Okapi's module nor the unmet two. Skipped with a
 * notice where that Okapi is not built.
 */
class PullFromOkapiTest {

  private static final List<String> ADDED =
      List.of(
          "mod-circulation-24.4.0", "mod-circulation-stand-ins-1.0.0", "mod-codex-inventory-2.3.0");

  @TempDir Path dir;

  @Test
  void pullFromOkapi615_itsOwnModuleAndUnmetLeftOut_restAdded() throws Exception {
    pullFrom(ReferenceOkapi::v615);
  }

  @Test
  void pullFromOkapi707_itsOwnModuleAndUnmetLeftOut_restAdded() throws Exception {
    pullFrom(ReferenceOkapi::v707);
  }

  private void pullFrom(Supplier<Optional<ReferenceOkapi>> reference) throws Exception {
    Optional<ReferenceOkapi> okapi = reference.get();
    Assumptions.assumeTrue(okapi.isPresent(), "Okapi not built (notice above)");
    int port = FreePorts.belowEphemeralRange();
    String gatewayUrl = "http://127.0.0.1:" + port;
    try (ReferenceOkapi.Running registry = okapi.get().startInMemory(dir.resolve("okapi.log"));
        JavaProcess gateway = Jars.devGateway(port)) {
      given()
          .baseUri(registry.url())
          .body(folioDescriptors().encode())
          .post("/_/proxy/import/modules?check=false")
          .then()
          .statusCode(204);
      String own = "okapi-" + okapi.get().version();
      given()
          .baseUri(registry.url())
          .get("/_/proxy/modules/" + own)
          .then()
          .statusCode(200)
          .body("provides[0].interfaceType", equalTo("internal"));
      gateway.awaitReady(gatewayUrl + "/_/version", JavaProcess.PATIENCE);

      given()
          .baseUri(gatewayUrl)
          .body(new JsonObject().put("urls", new JsonArray().add(registry.url())).encode())
          .post("/_/proxy/pull/modules")
          .then()
          .statusCode(200)
          .body("id", equalTo(ADDED));
      given()
          .baseUri(gatewayUrl)
          .get("/_/proxy/modules")
          .then()
          .statusCode(200)
          .body("id", not(hasItem(own)))
          .body("id", not(hasItem("mod-orphan-1.0.0")))
          .body("id", not(hasItem("mod-needs-orphan-1.0.0")));
      given()
          .baseUri(gatewayUrl)
          .get("/_/proxy/modules/mod-circulation-24.4.0")
          .then()
          .statusCode(200)
          .body("launchDescriptor.dockerImage", equalTo("folioorg/mod-circulation:24.4.0"));
    }
  }

  /**
   * okapi-core's copy of FOLIO registry answers, but the okapi module and the one Okapi refuses on
   * POST (a handler without {@code permissionsRequired}; Okapi takes it only by a pull).
   */
  private static JsonArray folioDescriptors() throws Exception {
    Path file = Jars.root().resolve("okapi-core/src/test/resources/pull/folio-registry.json");
    JsonArray all = new JsonArray(Files.readString(file));
    JsonArray kept = new JsonArray();
    all.stream()
        .map(JsonObject.class::cast)
        .filter(m -> !m.getString("id").startsWith("okapi-"))
        .filter(m -> !m.getString("id").equals("mod-legacy-1.0.0"))
        .forEach(kept::add);
    return kept;
  }
}
