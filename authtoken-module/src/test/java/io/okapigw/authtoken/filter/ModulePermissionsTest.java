package io.okapigw.authtoken.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.TestModule;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.token.ForgedTokens;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Module tokens with the real permission sets of mod-circulation: the check-out handler's module
 * permission is a set of 51 that nests further sets; a module token for it must grant what those
 * sets contain, on the downstream calls mod-circulation makes.
 */
@ExtendWith(VertxExtension.class)
class ModulePermissionsTest {
  static final String CIRCULATION = "mod-circulation-24.0.0";
  static final String CHECK_OUT_MODPERMS = "modperms.circulation.check-out-by-barcode.post";
  static final String MODULE_PERMISSIONS =
      new JsonObject()
          .put(CIRCULATION, new JsonArray().add(CHECK_OUT_MODPERMS))
          .put("mod-empty-1.0.0", new JsonArray())
          .encode();

  @TempDir Path dir;
  private final MutableClock clock = MutableClock.ofNow();
  private TestModule module;
  private String userId;
  private String token;

  @BeforeEach
  void setUp(Vertx vertx) throws Exception {
    module = TestModule.deploy(vertx, TestModule.options(dir), clock);
    try (InputStream in =
        getClass().getResourceAsStream("/folio/mod-circulation.ModuleDescriptor-template.json")) {
      JsonObject descriptor = new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      module.postPermissionSets(CIRCULATION, descriptor.getJsonArray("permissionSets"));
    }
    userId = module.createUser("librarian", "pw", List.of("circulation.check-out-by-barcode.post"));
    token = module.token("librarian", "pw");
  }

  @AfterEach
  void tearDown() {
    module.undeploy();
  }

  private Response checkOut(String token) {
    var request =
        module
            .filter()
            .header(
                OkapiHeaders.PERMISSIONS_REQUIRED, "[\"circulation.check-out-by-barcode.post\"]")
            .header(OkapiHeaders.MODULE_PERMISSIONS, MODULE_PERMISSIONS);
    return (token == null ? request : request.header(OkapiHeaders.TOKEN, token))
        .post("/circulation/check-out-by-barcode");
  }

  private int downstream(String token, String required) {
    return module
        .filter()
        .header(OkapiHeaders.TOKEN, token)
        .header(OkapiHeaders.USER_ID, userId)
        .header(OkapiHeaders.PERMISSIONS_REQUIRED, new JsonArray().add(required).encode())
        .get("/downstream")
        .statusCode();
  }

  private String moduleToken(Response answer) {
    return new JsonObject(answer.header(OkapiHeaders.MODULE_TOKENS)).getString(CIRCULATION);
  }

  @Test
  void moduleToken_grantsPermissionsNestedInTheModpermsSet() {
    Response r = checkOut(token);
    r.then().statusCode(202);
    String moduleToken = moduleToken(r);
    assertThat(downstream(moduleToken, "users.item.get")).isEqualTo(202);
    assertThat(downstream(moduleToken, "inventory-storage.items.item.put")).isEqualTo(202);
    // two levels down: modperms set -> circulation.internal.fetch-items.collection.get -> ...
    assertThat(downstream(moduleToken, "inventory-storage.items.item.get")).isEqualTo(202);
    assertThat(downstream(moduleToken, "circulation-storage.loans.item.delete")).isEqualTo(403);
    assertThat(downstream(token, "users.item.get")).isEqualTo(403);
  }

  @Test
  void moduleTokens_onlyForModulesWithPermissions_plusOriginalUnderUnderscore() {
    JsonObject tokens = new JsonObject(checkOut(token).header(OkapiHeaders.MODULE_TOKENS));
    assertThat(tokens.fieldNames()).containsExactlyInAnyOrder(CIRCULATION, "_");
    assertThat(tokens.getString("_")).isEqualTo(token);
  }

  @Test
  void moduleToken_claims_userTenantExtraPermissionsAndTheUserTokensExpiry_noIssuedAt() {
    String moduleToken = moduleToken(checkOut(token));
    JsonObject claims = ForgedTokens.payload(moduleToken);
    JsonObject user = ForgedTokens.payload(token);
    assertThat(claims.getString("type")).isEqualTo("module");
    assertThat(claims.getString("sub")).isEqualTo("librarian");
    assertThat(claims.getString("user_id")).isEqualTo(userId);
    assertThat(claims.getString("tenant")).isEqualTo(TestModule.TENANT);
    assertThat(claims.getJsonArray("extra_permissions")).containsExactly(CHECK_OUT_MODPERMS);
    assertThat(claims.getLong("exp")).isEqualTo(user.getLong("exp"));
    assertThat(claims.fieldNames()).doesNotContain("iat", "jti");
  }

  @Test
  void moduleToken_sameInputs_sameString() {
    String first = moduleToken(checkOut(token));
    clock.advance(Duration.ofMinutes(3));
    assertThat(moduleToken(checkOut(token))).isEqualTo(first);
  }

  @Test
  void moduleToken_expiresWithTheUserToken() {
    String moduleToken = moduleToken(checkOut(token));
    clock.advance(Duration.ofMinutes(10).plusSeconds(1));
    assertThat(downstream(moduleToken, "users.item.get")).isEqualTo(401);
  }

  @Test
  void moduleToken_userDeactivated_401() {
    String moduleToken = moduleToken(checkOut(token));
    module
        .request(TestModule.TENANT)
        .body("{\"active\":false}")
        .put("/users/" + userId)
        .then()
        .statusCode(204);
    assertThat(downstream(moduleToken, "users.item.get")).isEqualTo(401);
  }

  @Test
  void moduleToken_sessionLoggedOut_401() {
    String moduleToken = moduleToken(checkOut(token));
    module
        .request(TestModule.TENANT)
        .header(OkapiHeaders.TOKEN, token)
        .post("/authn/logout")
        .then()
        .statusCode(204);
    assertThat(downstream(moduleToken, "users.item.get")).isEqualTo(401);
  }

  @Test
  void moduleToken_chainedCall_getsOnlyTheNextModulesPermissions() {
    String circulationToken = moduleToken(checkOut(token));
    Response next =
        module
            .filter()
            .header(OkapiHeaders.TOKEN, circulationToken)
            .header(OkapiHeaders.PERMISSIONS_REQUIRED, "[\"users.item.get\"]")
            .header(OkapiHeaders.MODULE_PERMISSIONS, "{\"mod-users-1.0.0\":[\"x.only\"]}")
            .get("/users/1");
    next.then().statusCode(202);
    String usersToken =
        new JsonObject(next.header(OkapiHeaders.MODULE_TOKENS)).getString("mod-users-1.0.0");
    assertThat(ForgedTokens.payload(usersToken).getJsonArray("extra_permissions"))
        .containsExactly("x.only");
    assertThat(downstream(usersToken, "users.item.get")).isEqualTo(403);
  }

  @Test
  void anonymousRequest_getsAnonymousModuleTokensHoldingTheModulePermissions() {
    Response r =
        module
            .filter()
            .header(OkapiHeaders.MODULE_PERMISSIONS, MODULE_PERMISSIONS)
            .post("/authn/login");
    r.then().statusCode(202);
    String moduleToken = moduleToken(r);
    JsonObject claims = ForgedTokens.payload(moduleToken);
    assertThat(claims.containsKey("user_id")).isFalse();
    assertThat(claims.getString("sub")).isEqualTo("UNDEFINED_USER");
    int status =
        module
            .filter()
            .header(OkapiHeaders.TOKEN, moduleToken)
            .header(OkapiHeaders.PERMISSIONS_REQUIRED, "[\"users.item.get\"]")
            .get("/users")
            .statusCode();
    assertThat(status).isEqualTo(202);
    assertThat(
            moduleToken(
                module
                    .filter()
                    .header(OkapiHeaders.MODULE_PERMISSIONS, MODULE_PERMISSIONS)
                    .post("/authn/login")))
        .isEqualTo(moduleToken);
  }
}
