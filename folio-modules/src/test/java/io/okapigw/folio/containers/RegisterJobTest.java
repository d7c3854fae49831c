package io.okapigw.folio.containers;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.AuthtokenVerticle;
import io.okapigw.authtoken.gateway.InvalidationOptions;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.core.Gateway;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.data.CirculationData;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code register} job against a real gateway, the real authtoken module and the simulated
 * modules behind a real manifest, all in this JVM: protecting the admin API as the last step,
 * running again on the protected gateway, and leaving it open without credentials.
 */
class RegisterJobTest {

  private static final Map<String, String> ENV =
      Map.of(
          "SUPER_ADMIN_PASSWORD", "s3cret", "DEMO_PASSWORD", "d3mo", "WRONG", "not the password");

  @TempDir Path dir;

  private final Vertx vertx = Vertx.vertx();
  private Gateway gateway;
  private String authtokenUrl;
  private String manifestUrl;

  @BeforeEach
  void start() {
    gateway = Gateway.start(vertx, GatewayOptions.defaults(0).withInstances(1)).await();
    AuthtokenVerticle authtoken =
        new AuthtokenVerticle(
            AuthtokenOptions.onLoopback(dir)
                .withInvalidation(InvalidationOptions.to(gateway.okapiUrl()))
                .withPasswords(PasswordOptions.cheapest())
                .withBootstrap(
                    List.of(
                        new BootstrapUser("diku", "diku_admin", "d3mo", List.of("authtoken.all")),
                        new BootstrapUser(
                            "supertenant", "super_admin", "s3cret", List.of("okapi.all")))));
    vertx.deployVerticle(authtoken).await();
    authtokenUrl = "http://127.0.0.1:" + authtoken.actualPort();
    CirculationModules modules =
        CirculationModules.start(vertx, new CirculationData.Options(42, 20, 20)).await();
    ModulesOptions manifest =
        new ModulesOptions(
            "127.0.0.1",
            0,
            "127.0.0.1",
            new CirculationData.Options(42, 20, 20),
            CirculationModules.DEFAULT_CALL_TIMEOUT,
            Duration.ZERO);
    manifestUrl = "http://127.0.0.1:" + ManifestServer.start(vertx, manifest, modules).await();
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  private void register(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--gateway",
                gateway.okapiUrl(),
                "--modules-url",
                manifestUrl,
                "--authtoken-url",
                authtokenUrl,
                "--password-env",
                "DEMO_PASSWORD",
                "--timeout",
                "30s"));
    args.addAll(List.of(extra));
    RegisterJob.run(vertx, RegisterOptions.from(RegisterOptions.SPEC.read(args), ENV::get)).await();
  }

  private String superAdminToken() {
    return given()
        .baseUri(gateway.okapiUrl())
        .header("X-Okapi-Tenant", "supertenant")
        .contentType("application/json")
        .body("{\"username\":\"super_admin\",\"password\":\"s3cret\"}")
        .post("/authn/login")
        .then()
        .statusCode(201)
        .extract()
        .header("X-Okapi-Token");
  }

  private boolean adminApiProtected() {
    return given()
        .baseUri(gateway.okapiUrl())
        .get("/_/proxy/health")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getBoolean("adminApi.protected");
  }

  /**
   * @return what the registry holds, read as the super admin
   */
  private List<String> registry() {
    String token = superAdminToken();
    List<String> state = new ArrayList<>();
    for (String path :
        List.of(
            "/_/proxy/modules",
            "/_/discovery/modules",
            "/_/proxy/tenants",
            "/_/proxy/tenants/diku/modules",
            "/_/proxy/tenants/supertenant/modules")) {
      state.add(
          given()
              .baseUri(gateway.okapiUrl())
              .header("X-Okapi-Token", token)
              .get(path)
              .then()
              .statusCode(200)
              .extract()
              .asString());
    }
    return state;
  }

  @Test
  void run_withSuperAdmin_registersThenProtectsTheAdminApi() {
    register("--admin-password-env", "SUPER_ADMIN_PASSWORD");

    assertThat(adminApiProtected()).isTrue();
    given().baseUri(gateway.okapiUrl()).get("/_/proxy/tenants").then().statusCode(401);
    given()
        .baseUri(gateway.okapiUrl())
        .header("X-Okapi-Token", superAdminToken())
        .get("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(200);
  }

  @Test
  void run_againOnTheProtectedGateway_succeedsAndChangesNothing() {
    register("--admin-password-env", "SUPER_ADMIN_PASSWORD");
    List<String> before = registry();

    register("--admin-password-env", "SUPER_ADMIN_PASSWORD");

    assertThat(registry()).isEqualTo(before);
    assertThat(adminApiProtected()).isTrue();
  }

  @Test
  void run_protectedGatewayWithoutCredentials_failsSayingSo() {
    register("--admin-password-env", "SUPER_ADMIN_PASSWORD");

    assertThatThrownBy(() -> register())
        .hasMessageContaining("answered 401")
        .hasMessageContaining("the admin API is protected: give the super admin's credentials");
  }

  @Test
  void run_withoutCredentials_leavesTheAdminApiOpen() {
    register();

    assertThat(adminApiProtected()).isFalse();
    given().baseUri(gateway.okapiUrl()).get("/_/proxy/tenants/diku/modules").then().statusCode(200);
  }

  @Test
  void run_superAdminCannotLogIn_failsAndLeavesTheAdminApiOpen() {
    assertThatThrownBy(() -> register("--admin-password-env", "WRONG"))
        .hasMessageContaining("not protecting the admin API")
        .hasMessageNotContaining("not the password");

    assertThat(adminApiProtected()).isFalse();
  }
}
