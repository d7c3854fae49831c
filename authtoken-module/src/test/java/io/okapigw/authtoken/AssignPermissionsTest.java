package io.okapigw.authtoken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.authtoken.OkapiDriver.Route;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Granting permissions through the gateway (calls as Okapi 6.1.5 makes them, {@link OkapiDriver})
 * follows mod-permissions 6.5.0's rules: a tenant admin holding {@code authtoken.all}, as the
 * shipped set-up bootstraps {@code diku_admin}, may not give itself or anyone {@code okapi.all}
 * (issue 42: it then read the operator's {@code /_/env}); {@code okapi.*} needs {@code
 * perms.users.assign.okapi}, a permission a module defined needs {@code
 * perms.users.assign.immutable}, unless the caller holds it. A refused call changes nothing.
 */
@ExtendWith(VertxExtension.class)
class AssignPermissionsTest {
  private static final String AUTHTOKEN = "mod-authtoken-1.0.0";
  private static final Route PUT_PERMISSIONS = Route.of(AUTHTOKEN, "perms.users.item.put");
  private static final Route POST_USER = Route.of(AUTHTOKEN, "users.item.post");

  @TempDir Path dir;
  private TestModule module;
  private OkapiDriver okapi;

  @BeforeEach
  void setUp(Vertx vertx) throws Exception {
    module = TestModule.deploy(vertx, TestModule.options(dir), MutableClock.ofNow());
    okapi = new OkapiDriver(module, TestModule.TENANT);
    // what the gateway posts when it enables the authtoken module and the okapi module for diku
    module.postPermissionSets(
        AUTHTOKEN,
        new JsonObject(Files.readString(Path.of("descriptors", "ModuleDescriptor.json")))
            .getJsonArray("permissionSets"));
    module.postPermissionSets(
        "okapi-6.1.5",
        new JsonArray()
            .add(set("okapi.all", "okapi.env", "okapi.deploy"))
            .add(set("okapi.env", "okapi.env.get"))
            .add(set("okapi.deploy", "okapi.deployment.post")));
    module.postPermissionSets("mod-guarded-1.0.0", new JsonArray().add(set("guarded.get")));
  }

  @AfterEach
  void tearDown() {
    module.undeploy();
  }

  private static JsonObject set(String name, String... subPermissions) {
    return new JsonObject()
        .put("permissionName", name)
        .put("displayName", name)
        .put("subPermissions", new JsonArray(List.of(subPermissions)));
  }

  /** A user created by a direct (trusted) call, and its token. */
  private record User(String id, String token) {}

  private User user(String username, String... permissions) {
    String id = module.createUser(username, "pw", List.of(permissions));
    return new User(id, module.token(username, "pw"));
  }

  private Response putPermissions(User caller, String userId, String... permissions) {
    return putPermissions(caller, PUT_PERMISSIONS, userId, permissions);
  }

  private Response putPermissions(User caller, Route route, String userId, String... perms) {
    return okapi.proxy(
        "PUT",
        "/perms/users/" + userId + "/permissions",
        caller.token(),
        route,
        new JsonArray(List.of(perms)).encode());
  }

  private List<String> permissionsOf(String userId) {
    return module
        .request(TestModule.TENANT)
        .get("/perms/users/" + userId)
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getList("permissions", String.class);
  }

  @Test
  void tenantAdmin_grantsItselfOkapiAll_403AsModPermissions_nothingChanged() {
    User admin = user("diku_admin", "authtoken.all");

    putPermissions(admin, admin.id(), "authtoken.all", "okapi.all")
        .then()
        .statusCode(403)
        .body(
            equalTo(
                "Cannot add okapi permission okapi.all not owned by operating user " + admin.id()));

    assertThat(permissionsOf(admin.id())).containsExactly("authtoken.all");
  }

  @Test
  void tenantAdmin_grantsAnotherUserOkapiNamesDefinedOrNot_403NamingThemAll() {
    User admin = user("diku_admin", "authtoken.all");
    String alice = module.createUser("alice", "pw", List.of());

    putPermissions(admin, alice, "okapi.env.get", "okapi.made-up", "perms.users.assign.okapi")
        .then()
        .statusCode(403)
        .body(
            equalTo(
                "Cannot add okapi permissions okapi.env.get, okapi.made-up, perms.users.assign.okapi"
                    + " not owned by operating user "
                    + admin.id()));
    assertThat(permissionsOf(alice)).isEmpty();
  }

  @Test
  void tenantAdmin_createsUserWithOkapiAll_403_noUserCreated() {
    User admin = user("diku_admin", "authtoken.all");

    okapi
        .proxy(
            "POST",
            "/users",
            admin.token(),
            POST_USER,
            new JsonObject()
                .put("id", "u-okapi")
                .put("username", "operator")
                .put("password", "pw")
                .put("permissions", new JsonArray().add("okapi.all"))
                .encode())
        .then()
        .statusCode(403)
        .body(
            equalTo(
                "Cannot add okapi permission okapi.all not owned by operating user " + admin.id()));

    module.request(TestModule.TENANT).get("/perms/users/u-okapi").then().statusCode(404);
    module.login("operator", "pw").then().statusCode(422);
  }

  @Test
  void tenantAdmin_grantsWhatModulesDefineAndUndefinedNames_204_itsNormalWorkGoesOn() {
    User admin = user("diku_admin", "authtoken.all");
    String alice = module.createUser("alice", "pw", List.of());

    putPermissions(admin, alice, "guarded.get", "users.all", "no-module-defines-this")
        .then()
        .statusCode(204);
    assertThat(permissionsOf(alice))
        .containsExactly("guarded.get", "users.all", "no-module-defines-this");
  }

  @Test
  void callerWithoutAssignImmutable_grantsWhatAModuleDefined_403_whatItHolds_204() {
    User clerk = user("clerk", "perms.users.item.put", "guarded.get");
    String alice = module.createUser("alice", "pw", List.of());

    putPermissions(clerk, alice, "guarded.get", "users.item.post", "authtoken.all")
        .then()
        .statusCode(403)
        .body(
            equalTo(
                "Cannot add immutable permissions users.item.post, authtoken.all"
                    + " not owned by operating user "
                    + clerk.id()));
    assertThat(permissionsOf(alice)).isEmpty();

    putPermissions(clerk, alice, "guarded.get", "undefined.name").then().statusCode(204);
    assertThat(permissionsOf(alice)).containsExactly("guarded.get", "undefined.name");
  }

  @Test
  void holderOfAssignOkapi_grantsOkapiAll_204() {
    User root = user("root", "authtoken.all", "perms.users.assign.okapi");
    String alice = module.createUser("alice", "pw", List.of());

    putPermissions(root, alice, "okapi.all").then().statusCode(204);
    assertThat(permissionsOf(alice)).containsExactly("okapi.all");
  }

  @Test
  void holderOfOkapiAll_grantsOkapiAllOrItsSubPermissions_204_asModPermissions() {
    User holder = user("holder", "perms.users.item.put", "okapi.all");
    String alice = module.createUser("alice", "pw", List.of());

    putPermissions(holder, alice, "okapi.all", "okapi.env.get").then().statusCode(204);
    putPermissions(holder, alice, "okapi.other").then().statusCode(403);
    assertThat(permissionsOf(alice)).containsExactly("okapi.all", "okapi.env.get");
  }

  @Test
  void onlyWhatIsAdded_isChecked_aUserKeepsOkapiAllItWasGivenBefore() {
    User admin = user("diku_admin", "authtoken.all");
    String operator = module.createUser("operator", "pw", List.of("okapi.all"));

    putPermissions(admin, operator, "okapi.all", "guarded.get").then().statusCode(204);
    assertThat(permissionsOf(operator)).containsExactly("okapi.all", "guarded.get");
    putPermissions(admin, operator, "guarded.get").then().statusCode(204);
    assertThat(permissionsOf(operator)).containsExactly("guarded.get");
  }

  @Test
  void moduleTokenExtraPermissions_count_asModPermissionsModulePermissions() {
    User clerk = user("clerk", "perms.users.item.put");
    String alice = module.createUser("alice", "pw", List.of());
    Route withModulePermissions =
        PUT_PERMISSIONS.withModulePermissions(
            AUTHTOKEN, "perms.users.assign.okapi", "perms.users.assign.immutable");

    putPermissions(clerk, withModulePermissions, alice, "okapi.all").then().statusCode(204);
    assertThat(permissionsOf(alice)).containsExactly("okapi.all");
    Route otherExtras = PUT_PERMISSIONS.withModulePermissions(AUTHTOKEN, "guarded.get");
    putPermissions(clerk, otherExtras, alice, "okapi.all", "okapi.env")
        .then()
        .statusCode(403)
        .body(
            equalTo(
                "Cannot add okapi permission okapi.env not owned by operating user "
                    + clerk.id()
                    + ", modulePermissions: guarded.get"));
  }

  @Test
  void anonymousToken_grantsNothingItMayNot_403() {
    String alice = module.createUser("alice", "pw", List.of());
    // the filter lets a request requiring no permission pass with the anonymous token
    okapi
        .proxy(
            "PUT",
            "/perms/users/" + alice + "/permissions",
            null,
            Route.of(AUTHTOKEN),
            "[\"okapi.all\"]")
        .then()
        .statusCode(403)
        .body(equalTo("Cannot add okapi permission okapi.all not owned by operating user null"));
    assertThat(permissionsOf(alice)).isEmpty();
  }

  @Test
  void directCallWithForgedToken_401_withoutToken_trusted() {
    String alice = module.createUser("alice", "pw", List.of());

    module
        .request(TestModule.TENANT)
        .header("X-Okapi-Token", "e30.e30.x")
        .contentType(ContentType.JSON)
        .body("[\"okapi.all\"]")
        .put("/perms/users/" + alice + "/permissions")
        .then()
        .statusCode(401);
    assertThat(permissionsOf(alice)).isEmpty();
    // no token: auth is not enabled, as mod-permissions decides; the port is the gateway's only
    module
        .request(TestModule.TENANT)
        .contentType(ContentType.JSON)
        .body("[\"okapi.all\"]")
        .put("/perms/users/" + alice + "/permissions")
        .then()
        .statusCode(204);
  }
}
