package io.okapigw.authtoken.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.TestModule;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.token.ForgedTokens;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Login, refresh-token rotation and logout flows. */
@ExtendWith(VertxExtension.class)
class LoginTest {
  @TempDir Path dir;
  private final MutableClock clock = MutableClock.ofNow();
  private TestModule module;
  private String aliceId;

  @BeforeEach
  void setUp(Vertx vertx) {
    module = TestModule.deploy(vertx, TestModule.options(dir), clock);
    aliceId = module.createUser("alice", "correct horse", List.of("p.1"));
  }

  @AfterEach
  void tearDown() {
    module.undeploy();
  }

  private Response refresh(String refreshToken) {
    return module
        .request(TestModule.TENANT)
        .contentType(ContentType.JSON)
        .body(new JsonObject().put("refreshToken", refreshToken).encode())
        .post("/authn/refresh");
  }

  private int filterStatus(String token) {
    return module.filter().header(OkapiHeaders.TOKEN, token).get("/x").statusCode();
  }

  @Test
  void login_correctCredentials_201WithTokenInHeaderAndBody() {
    Response r = module.login("alice", "correct horse");
    r.then().statusCode(201).header("Cache-Control", "no-store");
    String token = r.header(OkapiHeaders.TOKEN);
    assertThat(r.jsonPath().getString("accessToken")).isEqualTo(token);
    assertThat(r.jsonPath().getString("refreshToken")).isNotBlank().doesNotContain(".");
    Instant expiresAt = Instant.parse(r.jsonPath().getString("expiresAt"));
    assertThat(expiresAt).isEqualTo(clock.instant().plus(Duration.ofMinutes(10)));
    JsonObject claims = ForgedTokens.payload(token);
    assertThat(claims.getString("sub")).isEqualTo("alice");
    assertThat(claims.getString("user_id")).isEqualTo(aliceId);
    assertThat(claims.getString("tenant")).isEqualTo(TestModule.TENANT);
    assertThat(claims.getString("type")).isEqualTo("access");
    assertThat(claims.getLong("exp")).isEqualTo(expiresAt.getEpochSecond());
    assertThat(ForgedTokens.header(token).getString("alg")).isEqualTo("HS256");
    assertThat(filterStatus(token)).isEqualTo(202);
  }

  @Test
  void login_wrongPasswordOrUnknownUser_422WithTheSameMessage() {
    String wrongPassword =
        module.login("alice", "wrong").then().statusCode(422).extract().asString();
    String unknownUser =
        module.login("bob", "correct horse").then().statusCode(422).extract().asString();
    assertThat(wrongPassword).isEqualTo(unknownUser).isEqualTo("wrong username or password");
  }

  @Test
  void login_userWithoutPassword_422SameMessage() {
    module
        .request(TestModule.TENANT)
        .contentType(ContentType.JSON)
        .body("{\"username\":\"nopass\"}")
        .post("/users")
        .then()
        .statusCode(201);
    module.login("nopass", "x").then().statusCode(422).body(equalTo("wrong username or password"));
  }

  @Test
  void login_inactiveUser_422() {
    module
        .request(TestModule.TENANT)
        .contentType(ContentType.JSON)
        .body("{\"active\":false}")
        .put("/users/" + aliceId)
        .then()
        .statusCode(204);
    module
        .login("alice", "correct horse")
        .then()
        .statusCode(422)
        .body(containsString("not active"));
  }

  @Test
  void login_badRequests_4xxNamingTheProblem() {
    var spec = module.request(TestModule.TENANT).contentType(ContentType.JSON);
    spec.body("{\"username\":\"alice\"}")
        .post("/authn/login")
        .then()
        .statusCode(422)
        .body(containsString("password"));
    module
        .request(TestModule.TENANT)
        .body("{\"username\":")
        .post("/authn/login")
        .then()
        .statusCode(400)
        .body(containsString("JSON"));
    module.request(TestModule.TENANT).body("[]").post("/authn/login").then().statusCode(400);
    module.request(TestModule.TENANT).post("/authn/login").then().statusCode(400);
    module
        .request(TestModule.TENANT)
        .body("{\"username\":1,\"password\":\"x\"}")
        .post("/authn/login")
        .then()
        .statusCode(422)
        .body(containsString("username"));
    module
        .request()
        .body("{\"username\":\"alice\",\"password\":\"correct horse\"}")
        .post("/authn/login")
        .then()
        .statusCode(400)
        .body(containsString("X-Okapi-Tenant"));
    module
        .request(TestModule.TENANT)
        .body("{\"username\":\"" + "x".repeat(70_000) + "\"}")
        .post("/authn/login")
        .then()
        .statusCode(413);
  }

  @Test
  void login_otherTenant_422() {
    module
        .request("other")
        .contentType(ContentType.JSON)
        .body("{\"username\":\"alice\",\"password\":\"correct horse\"}")
        .post("/authn/login")
        .then()
        .statusCode(422);
  }

  @Test
  void login_passwordNeverStoredInPlain_hashCarriesAlgorithmAndCost() throws Exception {
    String stored = Files.readString(dir.resolve("store").resolve("store.json"));
    assertThat(stored).doesNotContain("correct horse").contains("$pbkdf2-sha256$i=1000$");
  }

  @Test
  void login_fiftyConcurrent_allSucceed() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<Integer>> logins = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        logins.add(pool.submit(() -> module.login("alice", "correct horse").statusCode()));
      }
      for (Future<Integer> login : logins) {
        assertThat(login.get()).isEqualTo(201);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void refresh_rotatesTokensOfTheSameSession() {
    Response login = module.login("alice", "correct horse");
    clock.advance(Duration.ofMinutes(5));
    Response refreshed = refresh(login.jsonPath().getString("refreshToken"));
    refreshed.then().statusCode(201);
    String newToken = refreshed.header(OkapiHeaders.TOKEN);
    assertThat(newToken).isNotEqualTo(login.header(OkapiHeaders.TOKEN));
    assertThat(ForgedTokens.payload(newToken).getString("sid"))
        .isEqualTo(ForgedTokens.payload(login.header(OkapiHeaders.TOKEN)).getString("sid"));
    assertThat(refreshed.jsonPath().getString("refreshToken"))
        .isNotEqualTo(login.jsonPath().getString("refreshToken"));
    clock.advance(Duration.ofMinutes(6));
    assertThat(filterStatus(login.header(OkapiHeaders.TOKEN))).isEqualTo(401);
    assertThat(filterStatus(newToken)).isEqualTo(202);
  }

  @Test
  void refresh_reuse_401AndRevokesTheUsersRefreshTokensAndTheSession() {
    Response login = module.login("alice", "correct horse");
    Response otherSession = module.login("alice", "correct horse");
    String first = login.jsonPath().getString("refreshToken");
    Response refreshed = refresh(first);
    refreshed.then().statusCode(201);
    refresh(first).then().statusCode(401).body(containsString("already used"));
    refresh(refreshed.jsonPath().getString("refreshToken")).then().statusCode(401);
    refresh(otherSession.jsonPath().getString("refreshToken")).then().statusCode(401);
    assertThat(filterStatus(refreshed.header(OkapiHeaders.TOKEN))).isEqualTo(401);
    assertThat(filterStatus(otherSession.header(OkapiHeaders.TOKEN))).isEqualTo(202);
  }

  @Test
  void refresh_expired_401() {
    String refreshToken =
        module.login("alice", "correct horse").jsonPath().getString("refreshToken");
    clock.advance(Duration.ofDays(7).plusSeconds(1));
    refresh(refreshToken).then().statusCode(401).body(containsString("expired"));
  }

  @Test
  void refresh_unknownOrMissing_401or422() {
    refresh("not-a-refresh-token")
        .then()
        .statusCode(401)
        .body(containsString("invalid refresh token"));
    module
        .request(TestModule.TENANT)
        .body("{}")
        .post("/authn/refresh")
        .then()
        .statusCode(422)
        .body(containsString("refreshToken"));
  }

  @Test
  void refresh_otherTenant_401() {
    String refreshToken =
        module.login("alice", "correct horse").jsonPath().getString("refreshToken");
    module
        .request("other")
        .body(new JsonObject().put("refreshToken", refreshToken).encode())
        .post("/authn/refresh")
        .then()
        .statusCode(401);
  }

  @Test
  void refresh_deactivatedUser_401() {
    String refreshToken =
        module.login("alice", "correct horse").jsonPath().getString("refreshToken");
    module
        .request(TestModule.TENANT)
        .body("{\"active\":false}")
        .put("/users/" + aliceId)
        .then()
        .statusCode(204);
    refresh(refreshToken).then().statusCode(401).body(containsString("not active"));
  }

  @Test
  void logout_revokesTheSessionOnly() {
    Response session = module.login("alice", "correct horse");
    String other = module.token("alice", "correct horse");
    String token = session.header(OkapiHeaders.TOKEN);
    module
        .request(TestModule.TENANT)
        .header(OkapiHeaders.TOKEN, token)
        .post("/authn/logout")
        .then()
        .statusCode(204);
    assertThat(filterStatus(token)).isEqualTo(401);
    refresh(session.jsonPath().getString("refreshToken")).then().statusCode(401);
    assertThat(filterStatus(other)).isEqualTo(202);
  }

  @Test
  void logout_badToken_401AndMissingToken_401() {
    module
        .request(TestModule.TENANT)
        .post("/authn/logout")
        .then()
        .statusCode(401)
        .body(containsString("missing token"));
    module
        .request(TestModule.TENANT)
        .header(OkapiHeaders.TOKEN, "garbage")
        .post("/authn/logout")
        .then()
        .statusCode(401);
  }

  @Test
  void logout_tokenOfAnotherTenant_403() {
    String token = module.token("alice", "correct horse");
    module
        .request("other")
        .header(OkapiHeaders.TOKEN, token)
        .post("/authn/logout")
        .then()
        .statusCode(403);
    assertThat(filterStatus(token)).isEqualTo(202);
  }

  @Test
  void logout_tokenInCookieOrBareAuthorization_204() {
    String first = module.token("alice", "correct horse");
    String second = module.token("alice", "correct horse");
    module
        .request(TestModule.TENANT)
        .header("Cookie", "folioAccessToken=" + first)
        .post("/authn/logout")
        .then()
        .statusCode(204);
    module
        .request(TestModule.TENANT)
        .header("Authorization", second)
        .post("/authn/logout")
        .then()
        .statusCode(204);
    assertThat(filterStatus(first)).isEqualTo(401);
    assertThat(filterStatus(second)).isEqualTo(401);
  }

  @Test
  void logout_conflictingTokensOrTwoAccessTokenCookies_400AndNothingRevoked() {
    String token = module.token("alice", "correct horse");
    String other = module.token("alice", "correct horse");
    module
        .request(TestModule.TENANT)
        .header(OkapiHeaders.TOKEN, token)
        .header("Cookie", "folioAccessToken=" + other)
        .post("/authn/logout")
        .then()
        .statusCode(400)
        .body(containsString("cookie"));
    module
        .request(TestModule.TENANT)
        .header(OkapiHeaders.TOKEN, token)
        .header("Authorization", "Bearer " + other)
        .post("/authn/logout")
        .then()
        .statusCode(400)
        .body(containsString("different tokens"));
    module
        .request(TestModule.TENANT)
        .header("Cookie", "folioAccessToken=" + token + "; folioAccessToken=" + token)
        .post("/authn/logout")
        .then()
        .statusCode(400)
        .body(containsString("more than one"));
    assertThat(filterStatus(token)).isEqualTo(202);
    assertThat(filterStatus(other)).isEqualTo(202);
  }
}
