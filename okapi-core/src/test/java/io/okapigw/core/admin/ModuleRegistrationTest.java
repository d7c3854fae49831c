package io.okapigw.core.admin;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.emptyString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Registering and removing descriptors as Okapi 6.1.5 does: with {@code check=true} (the default)
 * what a module requires must be registered; posting an identical descriptor again succeeds, a
 * different one with the same id does not; {@code /_/proxy/import/modules} takes many at once, all
 * or none; a module others need cannot be removed.
 */
class ModuleRegistrationTest {

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();

  private static JsonObject provider(String id, String itf, String version) {
    JsonObject md = module(id, itf, handler("GET", "/" + itf));
    md.getJsonArray("provides").getJsonObject(0).put("version", version);
    return md;
  }

  private static JsonObject consumer(String id, String section, String itf, String version) {
    return new JsonObject()
        .put("id", id)
        .put(section, new JsonArray().add(new JsonObject().put("id", itf).put("version", version)));
  }

  private String modules() {
    return gw.request().get("/_/proxy/modules").asString();
  }

  @Test
  void postModule_requiredInterfaceMissing_400NamingEachAndNotRegistered() {
    String before = modules();
    JsonObject md = consumer("mod-c-1.0.0", "requires", "users", "15.0");
    md.getJsonArray("requires").add(new JsonObject().put("id", "items").put("version", "1.0 2.0"));
    gw.request()
        .body(md.encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(
            equalTo(
                "Missing dependency: mod-c-1.0.0 requires users: 15.0\n"
                    + "Missing dependency: mod-c-1.0.0 requires items: 1.0 2.0"));
    assertThat(modules()).isEqualTo(before);
  }

  @Test
  void postModule_requiredVersionIncompatible_400NamingWhatIsThere() {
    gw.addModule(provider("mod-users-1.0.0", "users", "14.1"));
    gw.request()
        .body(consumer("mod-c-1.0.0", "requires", "users", "15.0 16.0").encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(
            equalTo(
                "Incompatible version for module mod-c-1.0.0 interface users. Need"
                    + " 15.0 16.0. Have 14.1/mod-users-1.0.0"));
    gw.request()
        .body(consumer("mod-c-1.0.0", "requires", "users", "14.1.1").encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("Need 14.1.1"));
    gw.request()
        .body(consumer("mod-c-1.0.0", "requires", "users", "14.0").encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(201);
  }

  @Test
  void postModule_optionalInterface_checkedOnlyWhenSomeModuleProvidesIt() {
    gw.addModule(provider("mod-users-1.0.0", "users", "14.1"));
    gw.request()
        .body(consumer("mod-o-1.0.0", "optional", "users", "15.0").encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("interface users. Need 15.0. Have 14.1/mod-users-1.0.0"));
    gw.request()
        .body(consumer("mod-o-1.0.0", "optional", "notes", "1.0").encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(201);
  }

  @Test
  void postModule_checkFalse_registersWithoutProviders() {
    gw.request()
        .body(consumer("mod-c-1.0.0", "requires", "users", "15.0").encode())
        .post("/_/proxy/modules?check=false")
        .then()
        .statusCode(201);
    gw.request()
        .body("{\"id\":\"mod-d-1.0.0\"}")
        .post("/_/proxy/modules?check=yes")
        .then()
        .statusCode(400)
        .body(containsString("parameter check must be true or false"));
  }

  @Test
  void postModule_preReleaseFalse_preReleaseProvidersDoNotCount() {
    gw.addModule(provider("mod-users-2.0.0-SNAPSHOT.1", "users", "16.0"));
    JsonObject md = consumer("mod-c-1.0.0", "requires", "users", "16.0");
    gw.request()
        .body(md.encode())
        .post("/_/proxy/modules?preRelease=false")
        .then()
        .statusCode(400)
        .body(containsString("Missing dependency: mod-c-1.0.0 requires users"));
    gw.request().body(md.encode()).post("/_/proxy/modules").then().statusCode(201);
  }

  @Test
  void postModule_identicalAgain_201AndOneCopy() {
    JsonObject md = provider("mod-users-1.0.0", "users", "15.0");
    gw.addModule(md);
    gw.request()
        .body(md.encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(201)
        .header("Location", "/_/proxy/modules/mod-users-1.0.0")
        .body("id", equalTo("mod-users-1.0.0"));
    assertThat(gw.request().get("/_/proxy/modules").jsonPath().getList("id"))
        .containsOnlyOnce("mod-users-1.0.0");
  }

  @Test
  void postModule_differentWithSameId_400AndFirstKept() {
    gw.addModule(provider("mod-users-1.0.0", "users", "15.0"));
    gw.request()
        .body(provider("mod-users-1.0.0", "users", "15.1").encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(
            containsString(
                "module mod-users-1.0.0 already exists with a different" + " descriptor"));
    gw.request()
        .get("/_/proxy/modules/mod-users-1.0.0")
        .then()
        .body("provides[0].version", equalTo("15.0"));
  }

  @Test
  void importModules_dependenciesWithinTheBatch_204AndAllRegistered() {
    JsonArray batch =
        new JsonArray()
            .add(consumer("mod-c-1.0.0", "requires", "users", "15.0"))
            .add(provider("mod-users-1.0.0", "users", "15.0"));
    gw.request()
        .body(batch.encode())
        .post("/_/proxy/import/modules")
        .then()
        .statusCode(204)
        .body(emptyString());
    gw.request().body(batch.encode()).post("/_/proxy/import/modules").then().statusCode(204);
    gw.request().get("/_/proxy/modules/mod-c-1.0.0").then().statusCode(200);
  }

  @Test
  void importModules_oneRefused_400AndNoneRegistered() {
    String before = modules();
    JsonArray batch =
        new JsonArray()
            .add(provider("mod-users-1.0.0", "users", "15.0"))
            .add(consumer("mod-c-1.0.0", "requires", "items", "1.0"));
    gw.request()
        .body(batch.encode())
        .post("/_/proxy/import/modules")
        .then()
        .statusCode(400)
        .body(equalTo("Missing dependency: mod-c-1.0.0 requires items: 1.0"));
    JsonArray twice =
        new JsonArray()
            .add(provider("mod-users-1.0.0", "users", "15.0"))
            .add(provider("mod-users-1.0.0", "users", "15.1"));
    gw.request()
        .body(twice.encode())
        .post("/_/proxy/import/modules")
        .then()
        .statusCode(400)
        .body(containsString("already exists with a different descriptor"));
    gw.request()
        .body("{\"id\":\"mod-a-1.0.0\"}")
        .post("/_/proxy/import/modules")
        .then()
        .statusCode(400)
        .body(containsString("expected an array of module descriptors"));
    gw.request()
        .body("[1]")
        .post("/_/proxy/import/modules")
        .then()
        .statusCode(400)
        .body(containsString("item 0 is not a module descriptor"));
    assertThat(modules()).isEqualTo(before);
    gw.request()
        .body(batch.encode())
        .post("/_/proxy/import/modules?check=false")
        .then()
        .statusCode(204);
  }

  @Test
  void deleteModule_anotherRequiresIt_400NamingItThenCheckFalseRemoves() {
    gw.addModule(provider("mod-users-1.0.0", "users", "15.0"));
    gw.addModule(consumer("mod-c-1.0.0", "requires", "users", "15.0"));
    gw.request()
        .delete("/_/proxy/modules/mod-users-1.0.0")
        .then()
        .statusCode(400)
        .body(
            containsString(
                "delete: module mod-users-1.0.0: Missing dependency: mod-c-1.0.0"
                    + " requires users: 15.0"));
    gw.request().get("/_/proxy/modules/mod-users-1.0.0").then().statusCode(200);
    gw.request().delete("/_/proxy/modules/mod-users-1.0.0?check=false").then().statusCode(204);
    gw.request().get("/_/proxy/modules/mod-users-1.0.0").then().statusCode(404);
  }

  @Test
  void deleteModule_anotherProviderRemains_204() {
    gw.addModule(provider("mod-users-1.0.0", "users", "15.0"));
    gw.addModule(provider("mod-users-1.1.0", "users", "15.1"));
    gw.addModule(consumer("mod-c-1.0.0", "requires", "users", "15.0"));
    gw.request().delete("/_/proxy/modules/mod-users-1.0.0").then().statusCode(204);
    gw.request().delete("/_/proxy/modules/mod-users-1.1.0").then().statusCode(400);
  }

  @Test
  void deleteModule_unrelatedModuleAlreadyUnmet_204() {
    gw.addModule(provider("mod-other-1.0.0", "other", "1.0"));
    gw.request()
        .body(consumer("mod-c-1.0.0", "requires", "users", "15.0").encode())
        .post("/_/proxy/modules?check=false")
        .then()
        .statusCode(201);
    gw.request().delete("/_/proxy/modules/mod-other-1.0.0").then().statusCode(204);
  }
}
