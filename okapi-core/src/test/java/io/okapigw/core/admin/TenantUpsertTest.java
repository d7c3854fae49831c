package io.okapigw.core.admin;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import io.okapigw.core.testing.GatewayFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Creating and replacing tenants as Okapi 6.1.5: {@code PUT} creates a missing tenant (200 either
 * way), a tenant posted without an id gets one, and new ids follow Okapi's rule ({@code
 * [a-z][a-z0-9]{0,30}}).
 */
class TenantUpsertTest {

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();

  @Test
  void putTenant_missing_200AndCreated() {
    gw.request()
        .body("{\"id\":\"diku\",\"name\":\"DIKU\"}")
        .put("/_/proxy/tenants/diku")
        .then()
        .statusCode(200)
        .body("id", equalTo("diku"))
        .body("name", equalTo("DIKU"));
    gw.request().get("/_/proxy/tenants/diku").then().statusCode(200).body("name", equalTo("DIKU"));
    gw.request()
        .get("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(200)
        .body("size()", equalTo(0));
  }

  @Test
  void putTenant_existing_200ReplacedAndModulesStayEnabled() {
    gw.createTenant("diku");
    gw.addModule(module("mod-a-1.0.0", "a", handler("GET", "/a")));
    gw.enable("diku", "mod-a-1.0.0");
    gw.request()
        .body("{\"id\":\"diku\",\"name\":\"DIKU2\",\"description\":\"d\"}")
        .put("/_/proxy/tenants/diku")
        .then()
        .statusCode(200)
        .body("description", equalTo("d"));
    gw.request().get("/_/proxy/tenants/diku/modules").then().body("id", contains("mod-a-1.0.0"));
  }

  @Test
  void putTenant_idDiffersFromPath_400AndNothingCreated() {
    gw.request()
        .body("{\"id\":\"zzz\"}")
        .put("/_/proxy/tenants/other")
        .then()
        .statusCode(400)
        .body(containsString("id 'zzz' does not match the path 'other'"));
    gw.request().get("/_/proxy/tenants/other").then().statusCode(404);
    gw.request().get("/_/proxy/tenants/zzz").then().statusCode(404);
  }

  @Test
  void postTenant_withoutId_201WithGeneratedIdAsOkapi() {
    String id =
        gw.request()
            .body("{\"name\":\"no id\"}")
            .post("/_/proxy/tenants")
            .then()
            .statusCode(201)
            .body("name", equalTo("no id"))
            .body("id", matchesPattern("t[0-9a-f]{30}"))
            .extract()
            .path("id");
    gw.request().get("/_/proxy/tenants/" + id).then().statusCode(200);
  }

  @ParameterizedTest
  @CsvSource({
    "my_tenant, Tenant id must not contain underscore: my_tenant",
    "a-b, Tenant id must not contain minus: a-b",
    "abcdefghijabcdefghijabcdefghijab, Tenant id must not exceed 31 characters",
    "1abc, Tenant id must not start with a digit: 1abc",
    "aB, may only contain a-z and 0-9",
  })
  void newTenant_idAgainstOkapisRule_400ByPostAndPut(String id, String problem) {
    String before = gw.request().get("/_/proxy/tenants").asString();
    gw.request()
        .body("{\"id\":\"" + id + "\"}")
        .post("/_/proxy/tenants")
        .then()
        .statusCode(400)
        .body(containsString(problem));
    gw.request()
        .body("{\"id\":\"" + id + "\"}")
        .put("/_/proxy/tenants/" + id)
        .then()
        .statusCode(400)
        .body(containsString(problem));
    assertThat(gw.request().get("/_/proxy/tenants").asString()).isEqualTo(before);
  }
}
