package io.okapigw.core.pull;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /_/proxy/pull/modules} as Okapi's pull: descriptors another Okapi-protocol registry
 * (here a second gateway) has and this one lacks are added, all or none; the first URL that answers
 * is used; an unreachable or non-Okapi registry is a clear error that adds nothing.
 */
class PullTest {

  private final GatewayFixture registry = new GatewayFixture();
  private final GatewayFixture local = new GatewayFixture();

  @AfterEach
  void close() {
    registry.close();
    local.close();
  }

  private static JsonObject module(String id) {
    return new JsonObject().put("id", id).put("name", "module " + id);
  }

  private static JsonObject pull(String... urls) {
    return new JsonObject().put("urls", new JsonArray(List.of((Object[]) urls)));
  }

  @Test
  void pull_addsWhatIsMissing_once_okapiModuleNever() {
    registry.addModule(module("mod-a-1.0.0"));
    registry.addModule(module("mod-a-1.1.0"));
    registry.addModule(
        module("mod-provider-1.0.0")
            .put(
                "provides",
                new JsonArray().add(new JsonObject().put("id", "a").put("version", "1.0"))));
    registry.addModule(
        module("mod-b-2.0.0")
            .put(
                "requires",
                new JsonArray().add(new JsonObject().put("id", "a").put("version", "1.0"))));
    local.addModule(module("mod-a-1.0.0"));

    local
        .request()
        .body(pull(FreePortsUrl.closed(), registry.url()).encode())
        .post("/_/proxy/pull/modules")
        .then()
        .statusCode(200)
        .body("id", equalTo(List.of("mod-a-1.1.0", "mod-b-2.0.0", "mod-provider-1.0.0")))
        .body("[0].name", equalTo("module mod-a-1.1.0"));
    local
        .request()
        .get("/_/proxy/modules/mod-b-2.0.0")
        .then()
        .statusCode(200)
        .body("requires[0].id", equalTo("a"));

    local
        .request()
        .body(pull(registry.url()).encode())
        .post("/_/proxy/pull/modules")
        .then()
        .statusCode(200)
        .body("$", hasSize(0));
  }

  /**
   * A copy of what a FOLIO registry (an Okapi) answers: a real Okapi 6.1.5's own descriptor (an
   * {@code internal} interface), the real mod-circulation descriptor (system interfaces, a launch
   * descriptor) with a stand-in for the 41 interfaces it requires, a module with {@code multiple}
   * interfaces and {@code replaces}, one this gateway's rules refuse (a handler without {@code
   * permissionsRequired}: Okapi pulls it), one requiring an interface nothing provides and one
   * requiring only what that one provides. Okapi 6.1.5 and 7.0.7 pulling it register the first
   * four, leave out the last two and answer all six.
   */
  @Test
  void pullFromAFolioRegistry_okapiLeftOut_refusedAndUnmetLeftOut_restAdded() throws Exception {
    Buffer answer =
        Buffer.buffer(
            Files.readAllBytes(
                Path.of(PullTest.class.getResource("/pull/folio-registry.json").toURI())));
    HttpServer folio =
        local
            .vertx()
            .createHttpServer()
            .requestHandler(
                r ->
                    r.body()
                        .onSuccess(
                            skip ->
                                r.response()
                                    .end(
                                        r.path().equals("/_/version")
                                            ? Buffer.buffer("6.1.5")
                                            : answer)))
            .listen(0)
            .await();

    local
        .request()
        .body(pull("http://localhost:" + folio.actualPort()).encode())
        .post("/_/proxy/pull/modules")
        .then()
        .statusCode(200)
        .body(
            "id",
            equalTo(
                List.of(
                    "mod-circulation-24.4.0",
                    "mod-circulation-stand-ins-1.0.0",
                    "mod-codex-inventory-2.3.0")))
        .body("[0].name", equalTo("Circulation Module"));
    local
        .request()
        .get("/_/proxy/modules/mod-circulation-24.4.0")
        .then()
        .statusCode(200)
        .body("launchDescriptor.dockerImage", equalTo("folioorg/mod-circulation:24.4.0"))
        .body("provides.find { it.id == '_timer' }.interfaceType", equalTo("system"));
    local
        .request()
        .get("/_/proxy/modules/mod-codex-inventory-2.3.0")
        .then()
        .statusCode(200)
        .body("replaces", equalTo(List.of("mod-codex-inv")))
        .body("provides[0].interfaceType", equalTo("multiple"));
    local
        .request()
        .get("/_/proxy/modules")
        .then()
        .body("id", not(hasItem("okapi-6.1.5")))
        .body("id", not(hasItem("mod-legacy-1.0.0")))
        .body("id", not(hasItem("mod-orphan-1.0.0")))
        .body("id", not(hasItem("mod-needs-orphan-1.0.0")));
  }

  @Test
  void listWithSkipBody_leavesThoseOut_asOkapiAnswersAPullingOkapi() {
    registry.addModule(module("mod-a-1.0.0"));
    registry.addModule(module("mod-b-1.0.0"));
    registry
        .request()
        .body("[\"mod-a-1.0.0\"]")
        .get("/_/proxy/modules?full=true")
        .then()
        .statusCode(200)
        .body("id", hasItem("mod-b-1.0.0"))
        .body("id", not(hasItem("mod-a-1.0.0")));
  }

  @Test
  void noUrlAnswers_404_nothingAdded() {
    local
        .request()
        .body(pull(FreePortsUrl.closed(), FreePortsUrl.closed()).encode())
        .post("/_/proxy/pull/modules")
        .then()
        .statusCode(404)
        .body(startsWith("pull: none of remote URLs work"));
  }

  @Test
  void notAnOkapi_400_nothingAdded() {
    HttpServer other =
        local
            .vertx()
            .createHttpServer()
            .requestHandler(
                r -> r.response().end(r.path().equals("/_/version") ? "1.0" : "<html>hello"))
            .listen(0)
            .await();
    local
        .request()
        .body(pull("http://localhost:" + other.actualPort()).encode())
        .post("/_/proxy/pull/modules")
        .then()
        .statusCode(400)
        .body(startsWith("pull from http://localhost:" + other.actualPort()));
    local.request().get("/_/proxy/modules").then().body("$", hasSize(1));
  }

  @Test
  void badPullDescriptor_400() {
    local.request().body("{}").post("/_/proxy/pull/modules").then().statusCode(400);
    local
        .request()
        .body("{\"urls\":[\"http://x\"],\"more\":1}")
        .post("/_/proxy/pull/modules")
        .then()
        .statusCode(400);
    local.request().body("[]").post("/_/proxy/pull/modules").then().statusCode(400);
  }

  /** URLs nothing listens on. */
  private static final class FreePortsUrl {
    static String closed() {
      return "http://localhost:" + FreePorts.closed();
    }
  }
}
