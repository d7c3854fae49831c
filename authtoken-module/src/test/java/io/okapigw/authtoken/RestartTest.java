package io.okapigw.authtoken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.testsupport.TestPostgres;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Restarts with the same key file and store (JSON and PostgreSQL), key rotation, re-hashing. */
@ExtendWith(VertxExtension.class)
class RestartTest {
  @TempDir Path dir;
  private final MutableClock clock = MutableClock.ofNow();
  private TestModule module;

  @AfterEach
  void tearDown() {
    if (module != null) {
      module.undeploy();
    }
  }

  private AuthtokenOptions options(String store) {
    AuthtokenOptions options = TestModule.options(dir);
    return "postgresql".equals(store)
        ? options.withStore(TestPostgres.get().createDatabase())
        : options;
  }

  private int filterStatus(String token) {
    return module
        .filter()
        .header(OkapiHeaders.TOKEN, token)
        .header(OkapiHeaders.PERMISSIONS_REQUIRED, "[\"p.1\"]")
        .get("/x")
        .statusCode();
  }

  @ParameterizedTest
  @ValueSource(strings = {"json", "postgresql"})
  void restart_sameKeyAndStore_tokensUsersAndSessionsSurvive(String store, Vertx vertx) {
    AuthtokenOptions options = options(store);
    module = TestModule.deploy(vertx, options, clock);
    module.createUser("alice", "pw", List.of("p.1"));
    Response login = module.login("alice", "pw");
    String token = login.header(OkapiHeaders.TOKEN);
    String loggedOut = module.token("alice", "pw");
    module
        .request(TestModule.TENANT)
        .header(OkapiHeaders.TOKEN, loggedOut)
        .post("/authn/logout")
        .then()
        .statusCode(204);
    module.undeploy();

    module = TestModule.deploy(vertx, options, clock);
    assertThat(filterStatus(token)).isEqualTo(202);
    assertThat(filterStatus(loggedOut)).as("logout survives the restart").isEqualTo(401);
    module
        .request(TestModule.TENANT)
        .body(
            new JsonObject()
                .put("refreshToken", login.jsonPath().getString("refreshToken"))
                .encode())
        .post("/authn/refresh")
        .then()
        .statusCode(201);
    module.login("alice", "pw").then().statusCode(201);
  }

  @Test
  void restart_withAnotherKeyFile_oldTokensRefused(Vertx vertx) {
    module = TestModule.deploy(vertx, options("json"), clock);
    module.createUser("alice", "pw", List.of("p.1"));
    String token = module.token("alice", "pw");
    module.undeploy();
    module =
        TestModule.deploy(
            vertx, options("json").withSigningKeyFile(dir.resolve("other.key").toString()), clock);
    assertThat(filterStatus(token)).isEqualTo(401);
  }

  @Test
  void rotateSigningKey_oldTokensRefused_keyFileChanged_newLoginsWork(Vertx vertx)
      throws Exception {
    module = TestModule.deploy(vertx, options("json"), clock);
    module.createUser("alice", "pw", List.of("p.1"));
    String token = module.token("alice", "pw");
    String before = Files.readString(dir.resolve("signing.key"));
    module.request().post("/authtoken/signing-key/rotate").then().statusCode(204);
    assertThat(Files.readString(dir.resolve("signing.key"))).isNotEqualTo(before);
    module
        .filter()
        .header(OkapiHeaders.TOKEN, token)
        .get("/x")
        .then()
        .statusCode(401)
        .body(containsString("signature"));
    assertThat(filterStatus(module.token("alice", "pw"))).isEqualTo(202);
  }

  @Test
  void login_afterHashCostChange_rehashesThePassword(Vertx vertx) throws Exception {
    module = TestModule.deploy(vertx, options("json"), clock);
    module.createUser("alice", "pw", List.of("p.1"));
    module.undeploy();
    module =
        TestModule.deploy(
            vertx, options("json").withPasswords(new PasswordOptions(2_000, 2)), clock);
    assertThat(storeFile()).contains("$i=1000$").doesNotContain("$i=2000$");
    module.login("alice", "pw").then().statusCode(201);
    assertThat(storeFile()).contains("$i=2000$").doesNotContain("$i=1000$");
    module.login("alice", "pw").then().statusCode(201);
  }

  private String storeFile() throws Exception {
    return Files.readString(dir.resolve("store").resolve("store.json"));
  }

  @Test
  void start_badStore_failsNamingTheSetting(Vertx vertx) throws Exception {
    Files.writeString(
        Files.createDirectories(dir.resolve("store")).resolve("store.json"), "garbage");
    AuthtokenVerticle verticle = new AuthtokenVerticle(options("json"));
    String failure =
        vertx
            .deployVerticle(verticle)
            .map(id -> "deployed")
            .otherwise(Throwable::getMessage)
            .await();
    assertThat(failure).contains("--store");
  }
}
