package io.okapigw.core.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code /_/proxy/tenants/{t}/interfaces[/{id}]}: what a tenant's enabled modules provide, with the
 * answers Okapi 6.1.5 gave for the same modules.
 */
class TenantInterfacesTest {

  private static GatewayFixture gw;

  @BeforeAll
  static void start() {
    gw = new GatewayFixture();
    gw.createTenant("diku");
    gw.createTenant("empty");
    // enabled in this order; listed in module id order, as Okapi lists them
    gw.addModule(
        new JsonObject(
            "{\"id\":\"mod-users-1.10.0\",\"provides\":[{\"id\":\"users\","
                + "\"version\":\"15.2\",\"handlers\":[{\"methods\":[\"GET\"],\"pathPattern\":\"/users\","
                + "\"permissionsRequired\":[]}]}]}"));
    gw.addModule(
        new JsonObject(
            "{\"id\":\"mod-notes-3.0.0\",\"provides\":[{\"id\":\"notes\","
                + "\"version\":\"1.0\",\"scope\":[\"a\"]}]}"));
    gw.addModule(
        new JsonObject(
            "{\"id\":\"mod-circ-1.0.0\",\"requires\":[{\"id\":\"users\","
                + "\"version\":\"15.0\"}],\"provides\":[{\"id\":\"circ\",\"version\":\"2.0\"},{\"id\":"
                + "\"_tenant\",\"version\":\"2.0\",\"interfaceType\":\"system\",\"handlers\":[{"
                + "\"methods\":[\"POST\"],\"pathPattern\":\"/_/tenant\"}]}]}"));
    gw.enable("diku", "mod-users-1.10.0");
    gw.enable("diku", "mod-notes-3.0.0");
    // no instance to call _tenant on: invoke=false enables it without the call
    gw.request()
        .body("{\"id\":\"mod-circ-1.0.0\"}")
        .post("/_/proxy/tenants/diku/modules?invoke=false")
        .then()
        .statusCode(201);
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  private static JsonArray get(String path) {
    return new JsonArray(gw.request().get(path).then().statusCode(200).extract().asString());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''| [{\"id\":\"circ\",\"version\":\"2.0\"},{\"id\":\"_tenant\",\"version\":\"2.0\"},"
            + "{\"id\":\"notes\",\"version\":\"1.0\"},{\"id\":\"users\",\"version\":\"15.2\"}]",
        "?type=system| [{\"id\":\"_tenant\",\"version\":\"2.0\"}]",
        "?type=proxy| [{\"id\":\"circ\",\"version\":\"2.0\"},{\"id\":\"notes\",\"version\":\"1.0\"},"
            + "{\"id\":\"users\",\"version\":\"15.2\"}]",
        "?type=multiple| []",
        "?full=true&type=system| [{\"id\":\"_tenant\",\"version\":\"2.0\",\"interfaceType\":"
            + "\"system\",\"handlers\":[{\"methods\":[\"POST\"],\"pathPattern\":\"/_/tenant\"}]}]",
        "/users| [{\"id\":\"mod-users-1.10.0\"}]",
        "/_tenant?type=system| [{\"id\":\"mod-circ-1.0.0\"}]",
        "/_tenant?type=proxy| []",
        "/nothing| []",
      })
  void interfaces_asOkapi(String query, String expected) {
    assertThat(get("/_/proxy/tenants/diku/interfaces" + query)).isEqualTo(new JsonArray(expected));
  }

  @Test
  void interfaces_full_everyInterfaceAsItsModuleDescribesIt() {
    JsonArray full = get("/_/proxy/tenants/diku/interfaces?full=true");
    assertThat(full).hasSize(4);
    assertThat(full.getJsonObject(2))
        .isEqualTo(new JsonObject("{\"id\":\"notes\"," + "\"version\":\"1.0\",\"scope\":[\"a\"]}"));
  }

  @Test
  void interfaces_tenantWithoutModules_emptyList() {
    assertThat(get("/_/proxy/tenants/empty/interfaces")).isEmpty();
  }

  @Test
  void interfaces_unknownTenantOrBadParameter_4xxNamingIt() {
    gw.request()
        .get("/_/proxy/tenants/nope/interfaces")
        .then()
        .statusCode(404)
        .body(containsString("unknown tenant nope"));
    gw.request()
        .get("/_/proxy/tenants/nope/interfaces/users")
        .then()
        .statusCode(404)
        .body(containsString("unknown tenant nope"));
    gw.request()
        .get("/_/proxy/tenants/diku/interfaces?full=bogus")
        .then()
        .statusCode(400)
        .body(containsString("parameter full must be true or false"));
  }
}
