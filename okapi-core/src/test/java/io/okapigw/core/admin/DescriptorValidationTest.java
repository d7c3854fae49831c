package io.okapigw.core.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A posted descriptor is checked with Okapi 6.1.5's rules (each case below is a 400 on Okapi 6.1.5
 * too): the id needs a semantic version, interface versions and types, handler types and methods
 * must be ones Okapi knows, handlers of non-system interfaces need {@code permissionsRequired}.
 * Refused descriptors are not registered.
 */
class DescriptorValidationTest {

  private static final String HANDLER =
      "{\"methods\":[\"GET\"],\"pathPattern\":\"/x\"," + "\"permissionsRequired\":[]}";

  private static GatewayFixture gw;

  @BeforeAll
  static void start() {
    gw = new GatewayFixture();
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  private static String provides(String itf) {
    return "\"provides\":[" + itf + "]";
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"id\":\"mod-foo\"}" + "| id 'mod-foo' has no semantic version",
        "{\"id\":\"mod-foo-1.x\"}"
            + "| invalid id 'mod-foo-1.x': what follows the product name is not a semantic version"
            + " (missing version component)",
        "{\"id\":\"mod-foo-1.0.0x\"}" + "| (invalid semver: 1.0.0x)",
        "{\"id\":\"mod-foo-1.0.0-\"}" + "| (missing pre-release version component)",
        "{\"id\":\"mod-v-1.0.0\",\"provides\":[{\"id\":\"v\",\"version\":\"1\"}]}"
            + "| provides[0] (v): bad version '1'",
        "{\"id\":\"mod-v-1.0.0\",\"provides\":[{\"id\":\"v\",\"version\":\"1.0.0.0\"}]}"
            + "| provides[0] (v): bad version '1.0.0.0'",
        "{\"id\":\"mod-v-1.0.0\",\"requires\":[{\"id\":\"v\",\"version\":\"a.b\"}]}"
            + "| requires[0] (v): bad version 'a.b'",
        "{\"id\":\"mod-v-1.0.0\",\"optional\":[{\"id\":\"v\",\"version\":\"x\"}]}"
            + "| optional[0] (v): bad version 'x'",
        "{\"id\":\"mod-t-1.0.0\",\"provides\":[{\"id\":\"t\",\"version\":\"1.0\","
            + "\"interfaceType\":\"bogus\"}]}"
            + "| provides[0] (t): bad interfaceType 'bogus' (proxy, system or multiple)",
        // Okapi 6.1.5 refuses it too: "Bad interface type 'internal' for module ..."
        "{\"id\":\"mod-t-1.0.0\",\"provides\":[{\"id\":\"t\",\"version\":\"1.0\","
            + "\"interfaceType\":\"internal\"}]}"
            + "| provides[0] (t): bad interfaceType 'internal'",
        "{\"id\":\"mod-t-1.0.0\",\"requires\":[{\"id\":\"t\",\"version\":\"1.0\","
            + "\"interfaceType\":\"bogus\"}]}"
            + "| requires[0] (t): bad interfaceType 'bogus'",
        "{\"id\":\"mod-t-1.0.0\",\"provides\":[{\"id\":\"t\",\"version\":\"1.0\",\"handlers\":"
            + "[{\"methods\":[\"GET\"],\"pathPattern\":\"/t\",\"type\":\"bogus\","
            + "\"permissionsRequired\":[]}]}]}"
            + "| provides[0] (t).handlers[0]: invalid type 'bogus'",
        "{\"id\":\"mod-t-1.0.0\",\"filters\":[{\"methods\":[\"GET\"],\"pathPattern\":\"/t\","
            + "\"phase\":\"pre\",\"type\":\"bogus\"}]}"
            + "| filters[0]: invalid type 'bogus'",
        "{\"id\":\"mod-t-1.0.0\",\"provides\":[{\"id\":\"t\",\"version\":\"1.0\",\"handlers\":"
            + "[{\"methods\":[\"FOO\"],\"pathPattern\":\"/t\",\"permissionsRequired\":[]}]}]}"
            + "| provides[0] (t).handlers[0]: invalid method 'FOO'",
        "{\"id\":\"mod-t-1.0.0\",\"provides\":[{\"id\":\"t\",\"version\":\"1.0\",\"handlers\":"
            + "[{\"methods\":[\"get\"],\"pathPattern\":\"/t\",\"permissionsRequired\":[]}]}]}"
            + "| provides[0] (t).handlers[0]: invalid method 'get'",
        "{\"id\":\"mod-t-1.0.0\",\"provides\":[{\"id\":\"t\",\"version\":\"1.0\",\"handlers\":"
            + "[{\"methods\":[\"GET\"],\"pathPattern\":\"/hello\"}]}]}"
            + "| provides[0] (t).handlers[0] /hello: missing permissionsRequired ([] for none)",
        "{\"id\":\"mod-t-1.0.0\",\"provides\":[{\"id\":\"t\",\"version\":\"1.0\"},"
            + "{\"id\":\"t\",\"version\":\"1.1\"}]}"
            + "| provides[1] (t): interface t is provided more than once",
        "{\"id\":\"mod-t-1.0.0\",\"requires\":[{\"id\":\"okapi\",\"version\":\"1.0\",\"handlers\":"
            + "[{\"methods\":[\"GET\"],\"pathPattern\":\"/t\",\"permissionsRequired\":[]}]}]}"
            + "| requires[0] (okapi): no handlers allowed in 'requires'",
        "{\"id\":\"mod-t-1.0.0\",\"filters\":[{\"methods\":[\"GET\"],\"pathPattern\":\"/t\","
            + "\"phase\":\"later\"}]}"
            + "| filters[0]: phase must be one of auth, pre, post; was later",
        "{\"id\":\"mod-t-1.0.0\",\"filters\":[{\"methods\":[\"GET\"],\"pathPattern\":\"/t\","
            + "\"phase\":\"pre\",\"type\":\"redirect\"}]}"
            + "| filters[0]: a redirect entry needs a redirectPath",
        "{\"id\":\"mod-t-1.0.0\",\"permissionSets\":[{\"displayName\":\"x\"}]}"
            + "| permissionSets[0]: missing permissionName",
        "{\"id\":\"mod-t-1.0.0\",\"replaces\":[\"mod-old-1.0.0\"]}"
            + "| replaces: 'mod-old-1.0.0' must be a product name without a version",
      })
  void postModule_breaksAnOkapiRule_400NamingItAndNotRegistered(String descriptor, String problem) {
    String id = new JsonObject(descriptor).getString("id");
    gw.request()
        .body(descriptor)
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString(problem));
    gw.request().get("/_/proxy/modules/" + id).then().statusCode(404);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"id\":\"mod-ok1-1\"}",
        "{\"id\":\"mod-ok2-1.0.0-SNAPSHOT.12+meta\"}",
        "{\"id\":\"mod-ok3-1.0.0\",\"provides\":[{\"id\":\"v\",\"version\":\"1.0 2.0\"}]}",
        "{\"id\":\"mod-ok4-1.0.0\",\"provides\":[{\"id\":\"v\",\"version\":\"1.0.3\","
            + "\"interfaceType\":\"multiple\",\"handlers\":["
            + HANDLER
            + "]}]}",
        "{\"id\":\"mod-ok5-1.0.0\",\"provides\":[{\"id\":\"_tenant\",\"version\":\"2.0\","
            + "\"interfaceType\":\"system\",\"handlers\":[{\"methods\":[\"POST\"],"
            + "\"pathPattern\":\"/_/tenant\"}]}]}",
        "{\"id\":\"mod-ok6-1.0.0\",\"provides\":[{\"id\":\"t\",\"version\":\"1.0\",\"handlers\":"
            + "[{\"methods\":[\"PROPFIND\",\"*\"],\"pathPattern\":\"/t\",\"type\":\"internal\","
            + "\"permissionsRequired\":[]}]}],\"replaces\":[\"mod-old\"]}",
        // Okapi's own test header module: filters placed by the deprecated level, no phase
        "{\"id\":\"mod-ok7-1.0.0\",\"filters\":[{\"methods\":[\"GET\",\"POST\"],"
            + "\"path\":\"/red\",\"level\":\"21\",\"type\":\"redirect\","
            + "\"redirectPath\":\"/testr\",\"permissionsRequired\":[]},{\"methods\":[\"GET\"],"
            + "\"path\":\"/pre\",\"level\":\"45\",\"type\":\"headers\",\"permissionsRequired\":[]}]}",
        "{\"id\":\"mod-ok8-1.0.0\",\"filters\":[{\"methods\":[\"GET\"],\"pathPattern\":\"/n/*\","
            + "\"permissionsRequired\":[]}]}",
        // a redirectPath Okapi takes without a leading / (it then leads nowhere)
        "{\"id\":\"mod-ok9-1.0.0\",\"provides\":[{\"id\":\"r\",\"version\":\"1.0\",\"handlers\":"
            + "[{\"methods\":[\"GET\"],\"pathPattern\":\"/hop\",\"type\":\"redirect\","
            + "\"redirectPath\":\"testr\",\"permissionsRequired\":[]}]}]}",
      })
  void postModule_followsOkapisRules_201(String descriptor) {
    gw.request().body(descriptor).post("/_/proxy/modules").then().statusCode(201);
  }

  @Test
  void postModule_sameRulesOnImport_400AndNoneRegistered() {
    String ok =
        "{\"id\":\"mod-imp-1.0.0\"," + provides("{\"id\":\"imp\",\"version\":\"1.0\"}") + "}";
    String bad = "{\"id\":\"mod-bad-1.0.0\"," + provides("{\"id\":\"b\",\"version\":\"1\"}") + "}";
    gw.request()
        .body("[" + ok + "," + bad + "]")
        .post("/_/proxy/import/modules")
        .then()
        .statusCode(400)
        .body(containsString("module mod-bad-1.0.0: provides[0] (b): bad" + " version '1'"));
    assertThat(gw.request().get("/_/proxy/modules/mod-imp-1.0.0").statusCode()).isEqualTo(404);
  }
}
