package io.okapigw.authtoken;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.OkapiDriver.Route;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.token.ForgedTokens;
import io.okapigw.authtoken.users.Bootstrap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module as the auth filter of the gateway's built-in tenant {@code supertenant}, which
 * protects the admin API under {@code /_/} as Okapi 6.1.5 does: a {@code --bootstrap} {@code
 * super_admin} with {@code okapi.all}, Okapi's permission sets posted by {@code _tenantPermissions}
 * when the module is enabled there, and the super admin's password changed through the gateway.
 */
@ExtendWith(VertxExtension.class)
class SupertenantAdminTest {
  private static final String SUPER = "supertenant";
  private static final String OKAPI = "okapi-6.1.5";
  private static final String AUTHTOKEN = "mod-authtoken-1.0.0";
  private static final String PASSWORD = "PASS";
  private static final Route TENANTS_POST = Route.of(OKAPI, "okapi.proxy.tenants.post");
  private static final Route MODULES_POST = Route.of(OKAPI, "okapi.proxy.modules.post");

  @TempDir Path dir;
  private final MutableClock clock = MutableClock.ofNow();
  private TestModule module;
  private OkapiDriver okapi;

  @AfterEach
  void tearDown() {
    if (module != null) {
      module.undeploy();
    }
  }

  /**
   * The module started from a command line bootstrapping {@code super_admin} with these
   * permissions.
   */
  private AuthtokenOptions options(String permissions) {
    return CommandLine.parse(
        new String[] {
          "--port",
          "0",
          "--host",
          "127.0.0.1",
          "--store",
          "json:" + dir.resolve("store"),
          "--signing-key-file",
          dir.resolve("signing.key").toString(),
          "--password-hash-iterations",
          "1000",
          "--bootstrap",
          SUPER + ":super_admin:" + PASSWORD + ":" + permissions
        });
  }

  private void deploy(Vertx vertx, AuthtokenOptions options) {
    module = TestModule.deploy(vertx, options, clock);
    okapi = new OkapiDriver(module, SUPER);
  }

  /** What the gateway posts to the supertenant's auth module for a module enabled there. */
  private void postSets(String moduleId, JsonArray perms) {
    module
        .request(SUPER)
        .contentType("application/json")
        .body(new JsonObject().put("moduleId", moduleId).put("perms", perms).encode())
        .post("/_/tenantPermissions")
        .then()
        .statusCode(201);
  }

  private static JsonObject set(String name, String... subPermissions) {
    return new JsonObject()
        .put("permissionName", name)
        .put("displayName", name)
        .put("subPermissions", new JsonArray(List.of(subPermissions)));
  }

  /** {@code POST /authn/login} through the gateway for the supertenant. */
  private String login(String password) {
    return okapi
        .proxy(
            "POST",
            "/authn/login",
            null,
            Route.of(AUTHTOKEN),
            new JsonObject().put("username", "super_admin").put("password", password).encode())
        .then()
        .statusCode(201)
        .extract()
        .header(OkapiHeaders.TOKEN);
  }

  private int loginStatus(String password) {
    return okapi
        .proxy(
            "POST",
            "/authn/login",
            null,
            Route.of(AUTHTOKEN),
            new JsonObject().put("username", "super_admin").put("password", password).encode())
        .statusCode();
  }

  @Test
  void bootstrapSuperAdminWithOkapiAll_okapiSetsPostedLater_grantTheirSubPermissionsOnly(
      Vertx vertx) {
    deploy(vertx, options("okapi.all"));
    String before = login(PASSWORD);
    okapi.filter("POST", "/_/proxy/tenants", before, TENANTS_POST).then().statusCode(403);

    postSets(OKAPI, new JsonArray().add(set("okapi.all", "okapi.proxy.tenants.post")));
    String token = login(PASSWORD);
    okapi
        .filter("POST", "/_/proxy/tenants", token, TENANTS_POST)
        .then()
        .statusCode(202)
        .header(OkapiHeaders.USER_ID, Bootstrap.idOf(SUPER, "super_admin"));
    okapi.filter("POST", "/_/proxy/modules", token, MODULES_POST).then().statusCode(403);
    okapi
        .filter("POST", "/_/proxy/tenants", before, TENANTS_POST)
        .then()
        .statusCode(202); // issued before the sets
    new OkapiDriver(module, TestModule.TENANT)
        .filter("POST", "/_/proxy/tenants", token, TENANTS_POST)
        .then()
        .statusCode(403);
  }

  @Test
  void okapiSetsChanged_expansionFollowsAtOnce_nestedSetsIncluded(Vertx vertx) {
    deploy(vertx, options("okapi.all"));
    postSets(OKAPI, new JsonArray().add(set("okapi.all", "okapi.proxy.tenants.post")));
    String token = login(PASSWORD);
    okapi.filter("POST", "/_/proxy/modules", token, MODULES_POST).then().statusCode(403);

    postSets(
        OKAPI,
        new JsonArray()
            .add(set("okapi.all", "okapi.tenants", "okapi.modules"))
            .add(set("okapi.tenants", "okapi.proxy.tenants.post"))
            .add(set("okapi.modules", "okapi.proxy.modules.post")));
    okapi.filter("POST", "/_/proxy/modules", token, MODULES_POST).then().statusCode(202);
    okapi.filter("POST", "/_/proxy/tenants", token, TENANTS_POST).then().statusCode(202);

    postSets(OKAPI, new JsonArray());
    okapi.filter("POST", "/_/proxy/tenants", token, TENANTS_POST).then().statusCode(403);
  }

  @Test
  void superAdminChangesItsPasswordThroughTheGateway_aBootstrapAtRestartResetsIt(Vertx vertx)
      throws Exception {
    AuthtokenOptions options = options("okapi.all,authtoken.all");
    deploy(vertx, options);
    JsonArray authtokenSets =
        new JsonObject(Files.readString(Path.of("descriptors", "ModuleDescriptor.json")))
            .getJsonArray("permissionSets");
    postSets(AUTHTOKEN, authtokenSets);
    String token = login(PASSWORD);
    String id = ForgedTokens.payload(token).getString("user_id");
    assertThat(id).isEqualTo(Bootstrap.idOf(SUPER, "super_admin"));

    okapi
        .proxy(
            "PUT",
            "/users/" + id,
            token,
            Route.of(AUTHTOKEN, "users.item.put"),
            "{\"password\":\"NEW\"}")
        .then()
        .statusCode(204);
    assertThat(loginStatus("NEW")).isEqualTo(201);
    assertThat(loginStatus(PASSWORD)).isEqualTo(422);

    module.undeploy();
    deploy(vertx, options);
    assertThat(loginStatus(PASSWORD)).as("the bootstrap password again").isEqualTo(201);
    assertThat(loginStatus("NEW")).isEqualTo(422);
  }
}
