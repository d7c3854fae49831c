package io.okapigw.authtoken.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.nullValue;

import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.TestModule;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.token.ForgedTokens;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every rule of the auth filter, and its answers to bad input. */
@ExtendWith(VertxExtension.class)
class AuthFilterTest {
  @TempDir Path dir;
  private final MutableClock clock = MutableClock.ofNow();
  private TestModule module;
  private String aliceId;
  private String token;

  @BeforeEach
  void setUp(Vertx vertx) {
    module = TestModule.deploy(vertx, TestModule.options(dir), clock);
    module.postPermissionSets(
        "mod-x-1.0.0",
        new JsonArray()
            .add(set("set.a", "a.1", "set.b"))
            .add(set("set.b", "b.1", "set.a"))
            .add(set("modperms.x", "x.1", "set.b")));
    aliceId = module.createUser("alice", "secret", List.of("circ.checkout", "set.a"));
    token = module.token("alice", "secret");
  }

  @AfterEach
  void tearDown() {
    module.undeploy();
  }

  private static JsonObject set(String name, String... subs) {
    return new JsonObject()
        .put("permissionName", name)
        .put("subPermissions", new JsonArray(List.of(subs)));
  }

  private Response filter(String token, String required) {
    var request = module.filter().header(OkapiHeaders.PERMISSIONS_REQUIRED, required);
    if (token != null) {
      request.header(OkapiHeaders.TOKEN, token);
    }
    return request.post("/circulation/check-out-by-barcode");
  }

  private JsonObject claims(String tenant, long expSeconds) {
    long now = clock.instant().getEpochSecond();
    return new JsonObject()
        .put("sub", "alice")
        .put("user_id", aliceId)
        .put("tenant", tenant)
        .put("type", "access")
        .put("sid", "s1")
        .put("iat", now)
        .put("exp", now + expSeconds);
  }

  @Test
  void filter_validTokenHoldingRequiredPermission_202WithOkapiHeaders() {
    Response r =
        module
            .filter()
            .header(OkapiHeaders.TOKEN, token)
            .header(OkapiHeaders.PERMISSIONS_REQUIRED, "[\"circ.checkout\"]")
            .header(OkapiHeaders.PERMISSIONS_DESIRED, "[\"b.1\",\"not.held\"]")
            .post("/circulation/check-out-by-barcode");
    r.then().statusCode(202);
    assertThat(r.header(OkapiHeaders.TOKEN)).isEqualTo(token);
    assertThat(r.header(OkapiHeaders.USER_ID)).isEqualTo(aliceId);
    assertThat(new JsonArray(r.header(OkapiHeaders.PERMISSIONS)))
        .containsExactly("circ.checkout", "b.1");
    assertThat(new JsonObject(r.header(OkapiHeaders.MODULE_TOKENS)).getString("_"))
        .isEqualTo(token);
  }

  @Test
  void filter_permissionNestedInCyclicSets_202() {
    filter(token, "[\"b.1\", \"a.1\", \"set.b\"]").then().statusCode(202);
  }

  @Test
  void filter_missingPermission_403NamingIt() {
    filter(token, "[\"circ.checkout\", \"x.1\"]")
        .then()
        .statusCode(403)
        .body(containsString("x.1"));
  }

  @Test
  void filter_noRequiredPermission_anyValidToken_202() {
    filter(token, "[]").then().statusCode(202).header(OkapiHeaders.USER_ID, aliceId);
  }

  @Test
  void filter_commaSeparatedPermissionHeader_accepted() {
    filter(token, "circ.checkout, b.1").then().statusCode(202);
    filter(token, "circ.checkout,x.1").then().statusCode(403);
  }

  @Test
  void filter_anyMethodAndPath_isAFilterRequest() {
    module
        .filter()
        .header(OkapiHeaders.TOKEN, token)
        .delete("/users/123/anything?x=1")
        .then()
        .statusCode(202);
    module.filter().header(OkapiHeaders.TOKEN, token).get("/authn/login").then().statusCode(202);
  }

  @Test
  void filter_noToken_noPermissionRequired_202AsAnonymous() {
    Response r = filter(null, "[]");
    r.then().statusCode(202);
    assertThat(r.header(OkapiHeaders.USER_ID)).isNull();
    JsonObject anonymous = ForgedTokens.payload(r.header(OkapiHeaders.TOKEN));
    assertThat(anonymous.getString("sub")).isEqualTo("UNDEFINED_USER");
    assertThat(anonymous.getString("tenant")).isEqualTo(TestModule.TENANT);
    assertThat(anonymous.containsKey("user_id")).isFalse();
  }

  @Test
  void filter_noToken_permissionRequired_401() {
    filter(null, "[\"circ.checkout\"]")
        .then()
        .statusCode(401)
        .body(containsString("missing token"));
  }

  @Test
  void filter_noToken_butUserIdHeader_anonymousAndTheClaimedUserIgnored() {
    module
        .filter()
        .header(OkapiHeaders.USER_ID, aliceId)
        .get("/x")
        .then()
        .statusCode(202)
        .header(OkapiHeaders.USER_ID, nullValue());
    module
        .filter()
        .header(OkapiHeaders.USER_ID, aliceId)
        .header(OkapiHeaders.PERMISSIONS_REQUIRED, "circ.checkout")
        .get("/x")
        .then()
        .statusCode(401);
  }

  @Test
  void filter_expiredToken_401() {
    clock.advance(Duration.ofMinutes(10).plusSeconds(1));
    filter(token, "[]").then().statusCode(401).body(containsString("expired"));
  }

  @Test
  void filter_tokenJustBeforeExpiry_202() {
    clock.advance(Duration.ofMinutes(10).minusSeconds(1));
    filter(token, "[]").then().statusCode(202);
  }

  @Test
  void filter_tokenNotYetValid_401() throws Exception {
    JsonObject claims = claims("diku", 600).put("nbf", clock.instant().getEpochSecond() + 60);
    String early =
        ForgedTokens.hmac(
            "HS256", "HmacSHA256", ForgedTokens.key(dir.resolve("signing.key")), claims);
    filter(early, "[]").then().statusCode(401).body(containsString("not yet valid"));
    clock.advance(Duration.ofSeconds(61));
    filter(early, "[]").then().statusCode(202);
  }

  @Test
  void filter_tokenOfAnotherTenant_403() {
    module
        .request("other")
        .header(OkapiHeaders.FILTER, "auth")
        .header(OkapiHeaders.TOKEN, token)
        .get("/x")
        .then()
        .statusCode(403)
        .body(containsString("another tenant"));
  }

  @Test
  void filter_userIdHeader_mustMatchToken() {
    module
        .filter()
        .header(OkapiHeaders.TOKEN, token)
        .header(OkapiHeaders.USER_ID, aliceId)
        .get("/x")
        .then()
        .statusCode(202);
    module
        .filter()
        .header(OkapiHeaders.TOKEN, token)
        .header(OkapiHeaders.USER_ID, "someone-else")
        .get("/x")
        .then()
        .statusCode(403)
        .body(containsString("X-Okapi-User-Id"));
  }

  @Test
  void filter_userDeactivated_401AtOnce() {
    filter(token, "[]").then().statusCode(202);
    module
        .request(TestModule.TENANT)
        .contentType(ContentType.JSON)
        .body("{\"active\":false}")
        .put("/users/" + aliceId)
        .then()
        .statusCode(204);
    filter(token, "[]").then().statusCode(401).body(containsString("not active"));
  }

  @Test
  void filter_permissionRemoved_403AtOnce() {
    filter(token, "[\"circ.checkout\"]").then().statusCode(202);
    module
        .request(TestModule.TENANT)
        .contentType(ContentType.JSON)
        .body("[\"set.a\"]")
        .put("/perms/users/" + aliceId + "/permissions")
        .then()
        .statusCode(204);
    filter(token, "[\"circ.checkout\"]").then().statusCode(403);
    filter(token, "[\"b.1\"]").then().statusCode(202);
  }

  @Test
  void filter_permissionSetChanged_effectiveAtOnce() {
    filter(token, "[\"a.1\"]").then().statusCode(202);
    module.postPermissionSets("mod-x-1.0.0", new JsonArray().add(set("set.a", "a.2")));
    filter(token, "[\"a.1\"]").then().statusCode(403);
    filter(token, "[\"a.2\"]").then().statusCode(202);
  }

  @Test
  void filter_algNone_401() {
    filter(ForgedTokens.unsigned(claims("diku", 600)), "[]")
        .then()
        .statusCode(401)
        .body(containsString("HS256"));
  }

  @Test
  void filter_signedWithAnotherKey_401() {
    String forged = ForgedTokens.hmac("HS256", "HmacSHA256", new byte[32], claims("diku", 600));
    filter(forged, "[]").then().statusCode(401).body(containsString("signature"));
  }

  @Test
  void filter_algorithmSwitchedToHs512WithTheRealKey_401() throws Exception {
    byte[] key = ForgedTokens.key(dir.resolve("signing.key"));
    filter(ForgedTokens.hmac("HS512", "HmacSHA512", key, claims("diku", 600)), "[]")
        .then()
        .statusCode(401);
    filter(ForgedTokens.hmac("HS256", "HmacSHA256", key, claims("diku", 600)), "[]")
        .then()
        .statusCode(202);
  }

  @Test
  void filter_rs256HeaderSignedWithTheKeyAsHmacSecret_401() throws Exception {
    byte[] key = ForgedTokens.key(dir.resolve("signing.key"));
    filter(ForgedTokens.hmac("RS256", "HmacSHA256", key, claims("diku", 600)), "[]")
        .then()
        .statusCode(401);
  }

  @Test
  void filter_tokenWithoutExpiry_401() throws Exception {
    JsonObject claims = claims("diku", 600);
    claims.remove("exp");
    String noExp =
        ForgedTokens.hmac(
            "HS256", "HmacSHA256", ForgedTokens.key(dir.resolve("signing.key")), claims);
    filter(noExp, "[]").then().statusCode(401).body(containsString("expiry"));
  }

  @Test
  void filter_oversizedToken_401() {
    filter(token + "x".repeat(9000), "[]").then().statusCode(401).body(containsString("too large"));
  }

  @Test
  void filter_hugeHeaders_4xxNot500() {
    int status =
        module.filter().header(OkapiHeaders.TOKEN, "x".repeat(40_000)).get("/x").statusCode();
    assertThat(status).isBetween(400, 499);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"garbage", "a.b.c", "eyJhbGciOiJIUzI1NiJ9.e30.", "....", "Bearer x"})
  void filter_garbageToken_401(String garbage) {
    filter(garbage, "[]").then().statusCode(401);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "X-Okapi-Permissions-Required|[\"a\",",
        "X-Okapi-Permissions-Required|[1,2]",
        "X-Okapi-Permissions-Required|{\"a\":1}",
        "X-Okapi-Permissions-Required|a,\"b\"",
        "X-Okapi-Permissions-Desired|[null]",
        "X-Okapi-Module-Permissions|[\"a\"]",
        "X-Okapi-Module-Permissions|{\"m\":\"a\"}",
        "X-Okapi-Module-Permissions|{\"m\":[1]}",
        "X-Okapi-Module-Permissions|not json",
        "X-Okapi-Tenant|bad tenant!"
      })
  void filter_malformedHeader_4xxNamingIt(String header, String value) {
    var request =
        module.request().header(OkapiHeaders.FILTER, "auth").header(OkapiHeaders.TOKEN, token);
    if (!header.equals(OkapiHeaders.TENANT)) {
      request.header(OkapiHeaders.TENANT, TestModule.TENANT);
    }
    Response r = request.header(header, value).get("/x");
    assertThat(r.statusCode()).isIn(400, 401);
    assertThat(r.asString()).contains(header);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "X-Okapi-Token",
        "X-Okapi-Tenant",
        "X-Okapi-User-Id",
        "X-Okapi-Permissions-Required",
        "X-Okapi-Module-Permissions",
        "Authorization"
      })
  void filter_rawGarbageBytesInAHeader_4xxNot500(String header) throws Exception {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", module.port())) {
      java.io.ByteArrayOutputStream request = new java.io.ByteArrayOutputStream();
      String head =
          "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Okapi-Filter: auth\r\nConnection: close\r\n"
              + (header.equals(OkapiHeaders.TENANT) ? "" : "X-Okapi-Tenant: diku\r\n")
              + (header.equals(OkapiHeaders.TOKEN) ? "" : "X-Okapi-Token: " + token + "\r\n")
              + header
              + ": ";
      request.write(head.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
      request.write(new byte[] {(byte) 0xff, (byte) 0xfe, 0x01, (byte) 0x80, '{', '[', '"', 0x7f});
      request.write("\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
      socket.getOutputStream().write(request.toByteArray());
      String answer =
          new String(
              socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
      assertThat(answer).matches("(?s)HTTP/1\\.1 4\\d\\d .*");
    }
  }

  @Test
  void filter_missingTenant_400() {
    module
        .request()
        .header(OkapiHeaders.FILTER, "auth")
        .header(OkapiHeaders.TOKEN, token)
        .get("/x")
        .then()
        .statusCode(400)
        .body(containsString("X-Okapi-Tenant"));
  }

  @Test
  void filter_bearerAuthorizationHeader_accepted() {
    module
        .filter()
        .header("Authorization", "Bearer " + token)
        .get("/x")
        .then()
        .statusCode(202)
        .header(OkapiHeaders.USER_ID, aliceId);
  }

  @Test
  void filter_authorizationWithoutBearer_isTheBareToken() {
    module
        .filter()
        .header("Authorization", token)
        .get("/x")
        .then()
        .statusCode(202)
        .header(OkapiHeaders.USER_ID, aliceId);
    module
        .filter()
        .header("Authorization", "Basic YTpi")
        .get("/x")
        .then()
        .statusCode(401)
        .body(containsString("malformed token"));
  }

  @Test
  void filter_errorAsJson_whenClientAcceptsOnlyJson() {
    module
        .filter()
        .accept("application/json")
        .header(OkapiHeaders.TOKEN, "garbage")
        .get("/x")
        .then()
        .statusCode(401)
        .contentType(ContentType.JSON)
        .body("status", org.hamcrest.Matchers.is(401));
  }
}
