package io.okapigw.core.admin;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.routing.RoutingTables;
import io.okapigw.core.testing.GatewayFixture;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where the admin API is served: {@code admin.port}, {@code admin.host}, {@code admin.public}. */
class AdminListenerTest {

  @Test
  void privateAdminListener_servesTheAdminApi_publicListenerRefusesIt() {
    try (GatewayFixture gw =
        new GatewayFixture(
            GatewayOptions.defaults(0).withAdmin(new AdminOptions(0, "127.0.0.1", false)))) {
      String admin = "http://127.0.0.1:" + gw.gateway().adminPort();
      gw.request()
          .get("/_/proxy/tenants")
          .then()
          .statusCode(403)
          .body(containsString("admin.public=false"));
      gw.request().body("{\"id\":\"evil\"}").post("/_/proxy/tenants").then().statusCode(403);
      gw.request()
          .get("/_/proxy/health")
          .then()
          .statusCode(200)
          .body("adminApi.publicListener", equalTo(false))
          .body("adminApi.adminListener", equalTo("127.0.0.1:" + gw.gateway().adminPort()));
      given()
          .baseUri(admin)
          .get("/_/proxy/tenants")
          .then()
          .statusCode(200)
          .body("id", org.hamcrest.Matchers.contains("supertenant"));
      given()
          .baseUri(admin)
          .body("{\"id\":\"diku\"}")
          .post("/_/proxy/tenants")
          .then()
          .statusCode(201);
      gw.request()
          .get("/_/invoke/tenant/diku/x")
          .then()
          .statusCode(404)
          .body(containsString("no module serves GET /x for tenant diku"));
    }
  }

  @Test
  void defaults_adminApiOnThePublicListener_reportedOpen() {
    try (GatewayFixture gw = new GatewayFixture()) {
      assertThat(gw.gateway().adminPort()).isEqualTo(AdminOptions.NONE);
      gw.request()
          .get("/_/proxy/health")
          .then()
          .statusCode(200)
          .body("adminApi.protected", equalTo(false))
          .body("adminApi.authModule", nullValue())
          .body("adminApi.publicListener", equalTo(true));
    }
  }

  @Test
  void warning_namesTheRiskAndWhereTheApiIsReachable_untilProtected() {
    AdminExposure open =
        new AdminExposure(
            new RoutingTables(RegistryStore.inMemory()), AdminOptions.defaults(), "0.0.0.0:9130");
    assertThat(open.warning())
        .hasValueSatisfying(
            w ->
                assertThat(w)
                    .contains(
                        "admin API OPEN",
                        "0.0.0.0:9130",
                        "read other users' tokens",
                        "admin.public"));
  }

  @Test
  void settings_adminPublicFalseWithoutAdminPort_refusedNamingIt() {
    assertThatThrownBy(() -> GatewayOptions.from(Settings.of(Map.of("admin.public", "false"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("admin.port");
    assertThat(
            GatewayOptions.from(Settings.of(Map.of("admin.port", "9131", "admin.public", "false")))
                .admin())
        .isEqualTo(new AdminOptions(9131, "127.0.0.1", false));
  }
}
