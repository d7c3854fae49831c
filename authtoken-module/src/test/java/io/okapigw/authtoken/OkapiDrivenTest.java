package io.okapigw.authtoken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.notNullValue;

import io.okapigw.authtoken.OkapiDriver.Route;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.token.ForgedTokens;
import io.okapigw.authtoken.users.BootstrapUser;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module driven exactly as Okapi 6.1.5 drives it ({@link OkapiDriver}): auth filter calls
 * without {@code X-Okapi-Filter}, comma-separated permission lists, module permissions always
 * present, the handler call after the filter without the auth headers, system calls with {@code
 * X-Okapi-Filter: auth}, and {@code _tenantPermissions} 2.0 with {@code SYS#} sets.
 */
@ExtendWith(VertxExtension.class)
class OkapiDrivenTest {
  static final String AUTHTOKEN = "mod-authtoken-1.0.0";
  static final String MOD_B = "mod-b-1.0.0";
  static final String MOD_C = "mod-c-1.0.0";

  /** The name Okapi generates for mod-b's {@code GET, POST /b/{id}} handler. */
  static final String SYS_B = "SYS#mod-b-1.0.0#/b/{id}#[GET, POST]";

  static final Route B_GET =
      Route.of(MOD_B, "b.get")
          .desiring("b.want", "b.more")
          .withModulePermissions(MOD_B, "c.read", "c.write");

  @TempDir Path dir;
  private final MutableClock clock = MutableClock.ofNow();
  private TestModule module;
  private OkapiDriver okapi;
  private String adminToken;
  private String bobId;
  private String bobToken;

  @BeforeEach
  void setUp(Vertx vertx) throws Exception {
    module =
        TestModule.deploy(
            vertx,
            TestModule.options(dir)
                .withBootstrap(
                    List.of(
                        new BootstrapUser(
                            TestModule.TENANT, "diku_admin", "admin", List.of("authtoken.all")))),
            clock);
    okapi = new OkapiDriver(module, TestModule.TENANT);
    JsonObject descriptor =
        new JsonObject(Files.readString(Path.of("descriptors", "ModuleDescriptor.json")));
    enableModule(AUTHTOKEN, descriptor.getJsonArray("permissionSets")).then().statusCode(201);
    bobId = module.createUser("bob", "pw", List.of("b.get", "b.want"));
    bobToken = module.token("bob", "pw");
    adminToken =
        login("diku_admin", "admin").then().statusCode(201).extract().header(OkapiHeaders.TOKEN);
  }

  @AfterEach
  void tearDown() {
    module.undeploy();
  }

  private static JsonObject set(String name, String... subs) {
    return new JsonObject()
        .put("permissionName", name)
        .put("displayName", name)
        .put("subPermissions", new JsonArray(List.of(subs)));
  }

  /**
   * Okapi's {@code _tenantPermissions} system call: the filter with X-Okapi-Filter: auth, then the
   * handler.
   */
  private Response enableModule(String moduleId, JsonArray perms) {
    JsonObject body = new JsonObject().put("moduleId", moduleId);
    if (perms != null) {
      body.put("perms", perms);
    }
    Response answer = okapi.systemFilter("POST", "/_/tenantPermissions", "{}");
    answer.then().statusCode(202);
    return okapi.handler(
        answer, Route.of(AUTHTOKEN), "POST", "/_/tenantPermissions", body.encode());
  }

  private Response login(String username, String password) {
    return okapi.proxy(
        "POST",
        "/authn/login",
        null,
        Route.of(AUTHTOKEN),
        new JsonObject().put("username", username).put("password", password).encode());
  }

  private Response asAdmin(String method, String path, String required, String body) {
    return okapi.proxy(method, path, adminToken, Route.of(AUTHTOKEN, required), body);
  }

  private void enableModulesBAndC() {
    JsonObject sys =
        set(SYS_B, "modperms.b.get")
            .put("displayName", "System generated: " + SYS_B)
            .put("description", "System generated permission set")
            .put("visible", false);
    enableModule(
            MOD_B,
            new JsonArray()
                .add(set("b.get"))
                .add(set("modperms.b.get", "c.items.item.get", "c.all"))
                .add(sys))
        .then()
        .statusCode(201);
    enableModule(
            MOD_C,
            new JsonArray()
                .add(set("c.items.item.get"))
                .add(set("c.all", "c.items.collection.get")))
        .then()
        .statusCode(201);
  }

  private String moduleToken(Response answer, String moduleId) {
    return new JsonObject(answer.header(OkapiHeaders.MODULE_TOKENS)).getString(moduleId);
  }

  @Test
  void filterCall_asOkapiSendsIt_202WithTokenUserPermissionsAndModuleTokens() {
    Response r = okapi.filter("GET", "/b/7?x=1", bobToken, B_GET);
    r.then().statusCode(202);
    assertThat(r.header(OkapiHeaders.TOKEN)).isEqualTo(bobToken);
    assertThat(r.header(OkapiHeaders.USER_ID)).isEqualTo(bobId);
    assertThat(new JsonArray(r.header(OkapiHeaders.PERMISSIONS)))
        .containsExactly("b.get", "b.want");
    JsonObject tokens = new JsonObject(r.header(OkapiHeaders.MODULE_TOKENS));
    assertThat(tokens.fieldNames()).containsExactlyInAnyOrder(MOD_B, "_");
    assertThat(tokens.getString("_")).isEqualTo(bobToken);
    assertThat(ForgedTokens.payload(tokens.getString(MOD_B)).getJsonArray("extra_permissions"))
        .containsExactly("c.read", "c.write");
  }

  @Test
  void filterCall_emptyModulePermissions_isAFilterCallEvenOnTheModulesOwnRoutes() {
    Response r = okapi.filter("POST", "/users", bobToken, Route.of(AUTHTOKEN));
    r.then().statusCode(202);
    assertThat(new JsonObject(r.header(OkapiHeaders.MODULE_TOKENS)).fieldNames())
        .containsExactly("_");
    okapi.filter("GET", "/perms/users/" + bobId, null, Route.of(AUTHTOKEN)).then().statusCode(202);
    okapi.filter("DELETE", "/no/such/route", bobToken, Route.of(MOD_B)).then().statusCode(202);
  }

  @Test
  void filterCall_noToken_nothingRequired_202AsAnonymous() {
    Response r = okapi.filter("GET", "/b/7", null, Route.of(MOD_B));
    r.then().statusCode(202);
    assertThat(r.header(OkapiHeaders.USER_ID)).isNull();
    assertThat(ForgedTokens.payload(r.header(OkapiHeaders.TOKEN)).getString("sub"))
        .isEqualTo("UNDEFINED_USER");
    assertThat(new JsonArray(r.header(OkapiHeaders.PERMISSIONS))).isEmpty();
  }

  @Test
  void filterCall_noToken_permissionRequired_401() {
    okapi
        .filter("GET", "/b/7?x=1", null, B_GET)
        .then()
        .statusCode(401)
        .body(containsString("missing token"));
  }

  @Test
  void filterCall_invalidOrExpiredToken_401() {
    okapi
        .filter("GET", "/b/7", "garbage", B_GET)
        .then()
        .statusCode(401)
        .body(containsString("malformed"));
    clock.advance(Duration.ofMinutes(10).plusSeconds(1));
    okapi
        .filter("GET", "/b/7", bobToken, B_GET)
        .then()
        .statusCode(401)
        .body(containsString("expired"));
  }

  @Test
  void filterCall_missingPermission_403NamingIt() {
    okapi
        .filter("GET", "/b/7", bobToken, Route.of(MOD_B, "b.get", "b.delete"))
        .then()
        .statusCode(403)
        .body(equalTo("Access requires permission: b.delete"));
  }

  @Test
  void filterCall_commaListsTrimmed_emptyPartsDropped() {
    Response r =
        okapi.filter(
            "GET",
            "/b/7",
            bobToken,
            new Route(
                MOD_B,
                List.of(" b.get ", "", "b.want"),
                List.of("", "b.more ", " b.want"),
                Map.of()));
    r.then().statusCode(202);
    assertThat(new JsonArray(r.header(OkapiHeaders.PERMISSIONS)))
        .containsExactly("b.get", "b.want");
  }

  @Test
  void filterCall_jsonArrayPermissionHeaders_stillAccepted() {
    module
        .request(TestModule.TENANT)
        .header(OkapiHeaders.MODULE_PERMISSIONS, "{}")
        .header(OkapiHeaders.TOKEN, bobToken)
        .header(OkapiHeaders.PERMISSIONS_REQUIRED, "[\"b.get\"]")
        .header(OkapiHeaders.PERMISSIONS_DESIRED, "[\"b.want\",\"b.more\"]")
        .get("/b/7")
        .then()
        .statusCode(202)
        .header(OkapiHeaders.PERMISSIONS, "[\"b.get\",\"b.want\"]");
  }

  @Test
  void filterCall_olderGatewayWithXOkapiFilterAuthOnly_stillAFilterCall() {
    module
        .filter()
        .header(OkapiHeaders.TOKEN, bobToken)
        .header(OkapiHeaders.PERMISSIONS_REQUIRED, "b.get")
        .post("/users")
        .then()
        .statusCode(202)
        .header(OkapiHeaders.USER_ID, bobId);
  }

  @Test
  void handlerCall_withOkapisHandlerHeaders_neverAFilterCall() {
    Response answer =
        okapi.filter(
            "GET",
            "/perms/users/" + bobId,
            adminToken,
            Route.of(AUTHTOKEN, "perms.users.item.get"));
    okapi
        .handler(answer, Route.of(AUTHTOKEN), "GET", "/perms/users/" + bobId, null)
        .then()
        .statusCode(200)
        .body("permissions", equalTo(List.of("b.get", "b.want")));
    module
        .request(TestModule.TENANT)
        .header(OkapiHeaders.FILTER, "pre /b/*")
        .header(OkapiHeaders.TOKEN, bobToken)
        .get("/b/7")
        .then()
        .statusCode(404);
  }

  @Test
  void login_filterCallWithoutTokenThenHandlerCall_201WithAWorkingToken() {
    Response answer = okapi.filter("POST", "/authn/login", null, Route.of(AUTHTOKEN));
    answer.then().statusCode(202);
    Response login =
        okapi.handler(
            answer,
            Route.of(AUTHTOKEN),
            "POST",
            "/authn/login",
            "{\"username\":\"bob\",\"password\":\"pw\"}");
    login.then().statusCode(201).body("refreshToken", notNullValue());
    String token = login.header(OkapiHeaders.TOKEN);
    assertThat(login.jsonPath().getString("accessToken")).isEqualTo(token);
    okapi
        .filter("GET", "/b/7", token, B_GET)
        .then()
        .statusCode(202)
        .header(OkapiHeaders.USER_ID, bobId);
  }

  @Test
  void login_wrongPassword_422FromTheHandler() {
    login("bob", "wrong").then().statusCode(422).body(containsString("wrong username or password"));
  }

  @Test
  void refreshAndLogout_throughOkapi_newTokenThenSessionRevoked() {
    Response session = login("bob", "pw");
    String refreshToken = session.jsonPath().getString("refreshToken");
    Response refreshed =
        okapi.proxy(
            "POST",
            "/authn/refresh",
            null,
            Route.of(AUTHTOKEN),
            new JsonObject().put("refreshToken", refreshToken).encode());
    refreshed.then().statusCode(201);
    String token = refreshed.header(OkapiHeaders.TOKEN);
    okapi.filter("GET", "/b/7", token, B_GET).then().statusCode(202);
    okapi.proxy("POST", "/authn/logout", token, Route.of(AUTHTOKEN), null).then().statusCode(204);
    okapi
        .filter("GET", "/b/7", token, B_GET)
        .then()
        .statusCode(401)
        .body(containsString("logged out"));
    okapi.filter("GET", "/b/7", bobToken, B_GET).then().statusCode(202);
  }

  @Test
  void usersAndPermissionsApis_afterAFilterCallWithTheRightPermissions_work() {
    Response created =
        asAdmin(
            "POST",
            "/users",
            "users.item.post",
            "{\"username\":\"carol\",\"password\":\"pw\",\"permissions\":[\"b.get\"]}");
    created.then().statusCode(201);
    String id = created.jsonPath().getString("id");
    asAdmin("PUT", "/perms/users/" + id + "/permissions", "perms.users.item.put", "[\"perms.all\"]")
        .then()
        .statusCode(204);
    asAdmin("GET", "/perms/users/" + id + "?expanded=true", "perms.users.item.get", null)
        .then()
        .statusCode(200)
        .body("permissions", equalTo(List.of("perms.all")))
        .body("expandedPermissions", hasItems("perms.users.item.get"));
    asAdmin("PUT", "/users/" + id, "users.item.put", "{\"username\":\"carol2\"}")
        .then()
        .statusCode(204);
    login("carol2", "pw").then().statusCode(201);
  }

  @Test
  void usersApi_userWithoutThePermission_403NamingIt_andNothingCreated() {
    okapi
        .proxy(
            "POST",
            "/users",
            bobToken,
            Route.of(AUTHTOKEN, "users.item.post"),
            "{\"username\":\"dave\"}")
        .then()
        .statusCode(403)
        .body(containsString("users.item.post"));
    login("dave", "x").then().statusCode(422);
  }

  @Test
  void systemCall_withOrWithoutModulePermissions_202AsAnonymous_thenHandler201() {
    okapi.systemFilter("POST", "/_/tenantPermissions", null).then().statusCode(202);
    Response answer =
        okapi.systemFilter("POST", "/_/tenantPermissions", "{\"" + AUTHTOKEN + "\":[]}");
    answer.then().statusCode(202);
    assertThat(answer.header(OkapiHeaders.USER_ID)).isNull();
    okapi
        .handler(
            answer,
            Route.of(AUTHTOKEN),
            "POST",
            "/_/tenantPermissions",
            "{\"moduleId\":\"mod-x-1.0.0\",\"perms\":[{\"permissionName\":\"x.all\"}]}")
        .then()
        .statusCode(201)
        .body("moduleId", equalTo("mod-x-1.0.0"));
  }

  @Test
  void sysPermission_moduleTokenCarriesTheSysName_andGrantsPermissionsTwoLevelsDown() {
    enableModulesBAndC();
    Response r =
        okapi.filter(
            "GET", "/b/7", bobToken, Route.of(MOD_B, "b.get").withModulePermissions(MOD_B, SYS_B));
    r.then().statusCode(202);
    String bToken = moduleToken(r, MOD_B);
    assertThat(ForgedTokens.payload(bToken).getJsonArray("extra_permissions"))
        .containsExactly(SYS_B);
    // mod-b calls mod-c with its module token: SYS# set -> modperms.b.get -> c.items.item.get
    okapi
        .filter("GET", "/c/items/1", bToken, Route.of(MOD_C, "c.items.item.get"))
        .then()
        .statusCode(202);
    // three levels: SYS# set -> modperms.b.get -> c.all -> c.items.collection.get
    okapi
        .filter("GET", "/c/items", bToken, Route.of(MOD_C, "c.items.collection.get"))
        .then()
        .statusCode(202);
    okapi
        .filter("DELETE", "/c/items/1", bToken, Route.of(MOD_C, "c.items.item.delete"))
        .then()
        .statusCode(403);
    okapi
        .filter("GET", "/c/items/1", bobToken, Route.of(MOD_C, "c.items.item.get"))
        .then()
        .statusCode(403);
  }

  @Test
  void tenantPermissions_disableWithEmptyOrAbsentPerms_201AndTheSetsAreGone() {
    enableModulesBAndC();
    String bToken =
        moduleToken(
            okapi.filter(
                "GET", "/b/7", bobToken, Route.of(MOD_B).withModulePermissions(MOD_B, SYS_B)),
            MOD_B);
    enableModule(MOD_B, new JsonArray()).then().statusCode(201).body("perms", equalTo(List.of()));
    okapi
        .filter("GET", "/c/items/1", bToken, Route.of(MOD_C, "c.items.item.get"))
        .then()
        .statusCode(403);
    enableModule(MOD_C, null).then().statusCode(201).body("moduleId", equalTo(MOD_C));
  }
}
