package io.okapigw.core.admin;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.OversizedHeaders;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class AdminApiTest {

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();

  private static JsonObject provider(String id, String itf, String version) {
    return new JsonObject()
        .put("id", id)
        .put(
            "provides",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("id", itf)
                        .put("version", version)
                        .put("handlers", new JsonArray().add(handler("GET", "/" + itf)))));
  }

  private static JsonObject consumer(String id, String itf, String version) {
    // a path without the id's dots: Okapi refuses '.' in a pathPattern
    return module(id, id + "-api", handler("GET", "/" + id.replace('.', '-')))
        .put(
            "requires",
            new JsonArray().add(new JsonObject().put("id", itf).put("version", version)));
  }

  private String registrySnapshot() {
    return gw.request().get("/_/proxy/modules").asString()
        + gw.request().get("/_/proxy/tenants").asString()
        + gw.request().get("/_/discovery/modules").asString()
        + gw.request().get("/_/proxy/tenants/diku/modules").asString();
  }

  @Test
  void postModule_valid_201WithLocationAndUnknownFieldsKept() {
    JsonObject md = module("mod-a-1.0.0", "a", handler("GET", "/a")).put("vendorExtra", 42);
    gw.request()
        .body(md.encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(201)
        .header("Location", "/_/proxy/modules/mod-a-1.0.0");
    gw.request()
        .get("/_/proxy/modules/mod-a-1.0.0")
        .then()
        .statusCode(200)
        .body("vendorExtra", equalTo(42))
        .body("provides[0].id", equalTo("a"));
    gw.request()
        .get("/_/proxy/modules")
        .then()
        .statusCode(200)
        .body("id", contains(startsWith("mod-a-1.0.0"), startsWith("okapi-")));
  }

  @Test
  void postModule_badInput_400NamingProblemAndRegistryUnchanged() {
    gw.createTenant("diku");
    gw.addModule(module("mod-a-1.0.0", "a", handler("GET", "/a")));
    String before = registrySnapshot();
    gw.request()
        .body("{\"id\": ")
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("malformed JSON"));
    gw.request()
        .body("[1,2]")
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("JSON object"));
    gw.request()
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("missing JSON body"));
    gw.request()
        .body("{\"name\":\"no id\"}")
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("missing id"));
    gw.request()
        .body(module("mod-a-1.0.0", "b", handler("GET", "/b")).encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("already exists"));
    gw.request()
        .body("{\"id\":\"bad id!\"}")
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("has no semantic version"));
    gw.request()
        .body(
            module("mod-b-1.0.0", "b", new JsonObject().put("methods", new JsonArray().add("GET")))
                .encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("pathPattern"));
    gw.request()
        .body(
            new JsonObject()
                .put("id", "mod-c-1")
                .put(
                    "filters",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("methods", new JsonArray().add("*"))
                                .put("pathPattern", "/*")
                                .put("phase", "sideways")))
                .encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("phase"));
    gw.request()
        .body(new JsonObject().put("id", "mod-d-1").put("provides", "x").encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("provides must be"));
    assertThat(registrySnapshot()).isEqualTo(before);
  }

  @Test
  void deleteModule_enabledForTenant_400NamingTenant() {
    gw.createTenant("diku");
    gw.addModule(module("mod-a-1.0.0", "a", handler("GET", "/a")));
    gw.enable("diku", "mod-a-1.0.0");
    gw.request()
        .delete("/_/proxy/modules/mod-a-1.0.0")
        .then()
        .statusCode(400)
        .body(containsString("diku"));
    gw.request().delete("/_/proxy/tenants/diku/modules/mod-a-1.0.0").then().statusCode(204);
    gw.request().delete("/_/proxy/modules/mod-a-1.0.0").then().statusCode(204);
    gw.request().get("/_/proxy/modules/mod-a-1.0.0").then().statusCode(404);
    gw.request().delete("/_/proxy/modules/mod-a-1.0.0").then().statusCode(404);
  }

  @Test
  void tenantModules_listedInIdOrder_asOkapiKeepsThem() {
    gw.createTenant("diku");
    gw.addModule(module("mod-z-1.0.0", "z", handler("GET", "/z")));
    gw.addModule(module("mod-a-1.0.0", "a", handler("GET", "/a")));
    gw.addModule(module("mod-m-1.0.0", "m", handler("GET", "/m")));
    gw.enable("diku", "mod-z-1.0.0");
    gw.enable("diku", "mod-a-1.0.0");
    gw.enable("diku", "mod-m-1.0.0");
    gw.request()
        .get("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(200)
        .body("id", contains("mod-a-1.0.0", "mod-m-1.0.0", "mod-z-1.0.0"));
  }

  @Test
  void tenants_crud_behaveLikeOkapi() {
    gw.request()
        .body("{\"id\":\"diku\",\"name\":\"Datalogisk\"}")
        .post("/_/proxy/tenants")
        .then()
        .statusCode(201)
        .header("Location", "/_/proxy/tenants/diku");
    gw.request()
        .get("/_/proxy/tenants/diku")
        .then()
        .statusCode(200)
        .body("name", equalTo("Datalogisk"));
    gw.request()
        .body("{\"name\":\"DIKU\"}")
        .put("/_/proxy/tenants/diku")
        .then()
        .statusCode(200)
        .body("id", equalTo("diku"))
        .body("name", equalTo("DIKU"));
    gw.request()
        .get("/_/proxy/tenants")
        .then()
        .body("id", containsInAnyOrder("diku", "supertenant"));
    gw.request().delete("/_/proxy/tenants/diku").then().statusCode(204);
    gw.request()
        .get("/_/proxy/tenants/diku")
        .then()
        .statusCode(404)
        .body(containsString("unknown tenant diku"));
  }

  @Test
  void tenants_badInput_4xxAndNothingChanged() {
    gw.createTenant("diku");
    String before = registrySnapshot();
    gw.request()
        .body("{\"id\":\"diku\"}")
        .post("/_/proxy/tenants")
        .then()
        .statusCode(400)
        .body(containsString("already exists"));
    gw.request()
        .body("{\"id\":\"Bad-Tenant\"}")
        .post("/_/proxy/tenants")
        .then()
        .statusCode(400)
        .body(containsString("Tenant id must not contain minus: Bad-Tenant"));
    gw.request()
        .body("{\"id\": 7}")
        .post("/_/proxy/tenants")
        .then()
        .statusCode(400)
        .body(containsString("id must be a string"));
    gw.request()
        .body("{\"id\":\"other\"}")
        .put("/_/proxy/tenants/diku")
        .then()
        .statusCode(400)
        .body(containsString("does not match"));
    gw.request()
        .body("{\"name\":\"x\"}")
        .put("/_/proxy/tenants/no_such")
        .then()
        .statusCode(400)
        .body(containsString("must not contain underscore"));
    gw.request().delete("/_/proxy/tenants/nosuch").then().statusCode(404);
    assertThat(registrySnapshot()).isEqualTo(before);
  }

  @Test
  void enable_missingInterface_400NamingItThenSucceedsOnceProvided() {
    gw.createTenant("diku");
    gw.addModule(provider("mod-users-1.0.0", "users", "15.3"));
    gw.addModule(consumer("mod-c-1.0.0", "users", "15.0"));
    String before = registrySnapshot();
    gw.request()
        .body("{\"id\":\"mod-c-1.0.0\"}")
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(400)
        .body(containsString("users 15.0"));
    assertThat(registrySnapshot()).isEqualTo(before);
    gw.enable("diku", "mod-users-1.0.0");
    gw.request()
        .body("{\"id\":\"mod-c-1.0.0\"}")
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(201)
        .header("Location", "/_/proxy/tenants/diku/modules/mod-c-1.0.0")
        .body("id", equalTo("mod-c-1.0.0"));
    gw.request().get("/_/proxy/tenants/diku/modules").then().body("id", hasSize(2));
  }

  @Test
  void enable_incompatibleVersion_refused() {
    gw.createTenant("diku");
    gw.addModule(provider("mod-users-1.0.0", "users", "14.9"));
    gw.request()
        .body(consumer("mod-c-1.0.0", "users", "15.0 16.0").encode())
        .post("/_/proxy/modules?check=false")
        .then()
        .statusCode(201);
    gw.enable("diku", "mod-users-1.0.0");
    gw.request()
        .body("{\"id\":\"mod-c-1.0.0\"}")
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(400)
        .body(containsString("users 15.0 16.0"));
  }

  @Test
  void enable_badInput_4xxNamingProblem() {
    gw.createTenant("diku");
    gw.addModule(provider("mod-users-1.0.0", "users", "15.0"));
    gw.addModule(provider("mod-users2-1.0.0", "users", "15.0"));
    gw.enable("diku", "mod-users-1.0.0");
    String before = registrySnapshot();
    gw.request()
        .body("{\"id\":\"mod-x-1\"}")
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(404)
        .body(containsString("mod-x-1"));
    gw.request()
        .body("{\"id\":\"mod-users-1.0.0\"}")
        .post("/_/proxy/tenants/nosuch/modules")
        .then()
        .statusCode(404)
        .body(containsString("unknown tenant nosuch"));
    gw.request()
        .body("{\"id\":\"mod-users-1.0.0\"}")
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(400)
        .body(containsString("already enabled"));
    gw.request()
        .body("{\"id\":\"mod-users2-1.0.0\"}")
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(400)
        .body(containsString("already provided by mod-users-1.0.0"));
    gw.request()
        .body("{}")
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(400)
        .body(containsString("missing id"));
    gw.request()
        .body("{\"id\": 7}")
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(400)
        .body(containsString("must be a string"));
    assertThat(registrySnapshot()).isEqualTo(before);
  }

  @Test
  void disable_moduleAnotherNeeds_400NamingDependent() {
    gw.createTenant("diku");
    gw.addModule(provider("mod-users-1.0.0", "users", "15.0"));
    gw.addModule(consumer("mod-c-1.0.0", "users", "15.0"));
    gw.enable("diku", "mod-users-1.0.0");
    gw.enable("diku", "mod-c-1.0.0");
    gw.request()
        .delete("/_/proxy/tenants/diku/modules/mod-users-1.0.0")
        .then()
        .statusCode(400)
        .body(containsString("mod-c-1.0.0 requires users 15.0"));
    gw.request().delete("/_/proxy/tenants/diku/modules/mod-c-1.0.0").then().statusCode(204);
    gw.request().delete("/_/proxy/tenants/diku/modules/mod-users-1.0.0").then().statusCode(204);
    gw.request().delete("/_/proxy/tenants/diku/modules/mod-users-1.0.0").then().statusCode(404);
  }

  @Test
  void discovery_severalInstances_listedAndRemovable() {
    gw.addModule(module("mod-a-1.0.0", "a", handler("GET", "/a")));
    gw.request()
        .body("{\"srvcId\":\"mod-a-1.0.0\",\"instId\":\"i1\",\"url\":\"http://h1:1\"}")
        .post("/_/discovery/modules")
        .then()
        .statusCode(201)
        .header("Location", "/_/discovery/modules/mod-a-1.0.0/i1");
    gw.request()
        .body("{\"srvcId\":\"mod-a-1.0.0\",\"instId\":\"i2\",\"url\":\"http://h2:2/\"}")
        .post("/_/discovery/modules")
        .then()
        .statusCode(201)
        .body("url", equalTo("http://h2:2/"));
    gw.request().get("/_/discovery/modules/mod-a-1.0.0").then().body("instId", hasSize(2));
    gw.request()
        .get("/_/discovery/modules/mod-a-1.0.0/i2")
        .then()
        .statusCode(200)
        .body("url", equalTo("http://h2:2/"));
    gw.request().delete("/_/discovery/modules/mod-a-1.0.0/i1").then().statusCode(204);
    gw.request().get("/_/discovery/modules").then().body("instId", hasSize(1));
    gw.request().delete("/_/discovery/modules/mod-a-1.0.0").then().statusCode(204);
    gw.request().get("/_/discovery/modules/mod-a-1.0.0").then().statusCode(404);
    gw.request().delete("/_/discovery/modules/mod-a-1.0.0").then().statusCode(404);
  }

  @Test
  void discovery_badInput_400AndNothingChanged() {
    gw.addModule(module("mod-a-1.0.0", "a", handler("GET", "/a")));
    gw.deploy("mod-a-1.0.0", "http://h1:1");
    String instId =
        gw.request().get("/_/discovery/modules/mod-a-1.0.0").jsonPath().getString("[0].instId");
    String before = registrySnapshot();
    gw.request()
        .body("{\"srvcId\":\"mod-a-1.0.0\",\"instId\":\"f\",\"url\":\"ftp://h:1\"}")
        .post("/_/discovery/modules")
        .then()
        .statusCode(400)
        .body(containsString("url"));
    gw.request()
        .body("{\"srvcId\":\"mod-a-1.0.0\",\"instId\":\"n\"}")
        .post("/_/discovery/modules")
        .then()
        .statusCode(400)
        .body(containsString("missing url"));
    gw.request()
        .body(
            new JsonObject()
                .put("srvcId", "mod-a-1.0.0")
                .put("instId", instId)
                .put("url", "http://h9:9")
                .encode())
        .post("/_/discovery/modules")
        .then()
        .statusCode(400)
        .body(containsString("Duplicate instId " + instId));
    assertThat(registrySnapshot()).isEqualTo(before);
  }

  @Test
  void versionAndHealth_answer() {
    gw.request().get("/_/version").then().statusCode(200).body(containsString("."));
    gw.request().get("/_/proxy/health").then().statusCode(200).body("status", equalTo("UP"));
  }

  @Test
  void unknownAdminPath_404Naming() {
    gw.request()
        .get("/_/proxy/nothing")
        .then()
        .statusCode(404)
        .body(containsString("no module serves GET /_/proxy/nothing for tenant supertenant"));
  }

  @Test
  void oversizedInput_4xx() throws Exception {
    assertThat(OversizedHeaders.status(gw.gateway().port(), "/_/version", "diku", 40_000))
        .isEqualTo(431);
    // headers only: the gateway must refuse on Content-Length, before reading a byte of body
    int status =
        gw.vertx()
            .createHttpClient()
            .request(
                new RequestOptions()
                    .setMethod(HttpMethod.POST)
                    .setAbsoluteURI(gw.url() + "/_/proxy/tenants")
                    .putHeader("Content-Length", Long.toString(11L * 1024 * 1024)))
            .compose(req -> req.sendHead().compose(v -> req.response()))
            .map(HttpClientResponse::statusCode)
            .await();
    assertThat(status).isEqualTo(413);
    gw.request().get("/_/proxy/tenants").then().statusCode(200).body("id", contains("supertenant"));
  }
}
