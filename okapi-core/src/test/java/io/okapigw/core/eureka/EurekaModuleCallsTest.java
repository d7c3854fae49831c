package io.okapigw.core.eureka;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.LogCapture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.TestModule.Recorded;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Modules' calls to modules of an Eureka tenant, as the sidecar's egress makes them: a module's
 * call back (it passes on the {@code X-Okapi-Request-Id} of the call the gateway sent it, which
 * holds that call's key) carries {@code X-System-Token} and is decided for it; without a user's
 * token it carries the calling module's system user's token, logged in with credentials from
 * FOLIO's secure store (the ephemeral kind: a properties file under the sidecar's keys); the
 * gateway's tokens are cached per tenant and replaced before they expire as the sidecar replaces
 * them (a fake clock moves). A client's request, whatever id it sends, is a client's.
 */
class EurekaModuleCallsTest {

  private static final String ALICE = "8b7f486d-e389-42bc-a056-e54dfafd585b";
  private static final String SYSTEM_USER_ID = "4a1b7c2e-0000-4000-8000-00000000c0de";
  private static final String THINGS = "mod-things-1.0.0";
  private static final String CALLER = "mod-caller-2.1.0";
  private static final String LOGIN_SECRET = "login-secret-7f3a91";
  private static final String SERVICE_SECRET = "service-secret-52be07";
  private static final String PASSWORD = "system-user-password-c81d";

  @TempDir Path dir;

  private final Vertx keycloakVertx = Vertx.vertx();
  private final FakeKeycloak keycloak = new FakeKeycloak(keycloakVertx);
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final FakeScheduler timers = new FakeScheduler(Instant.parse("2026-01-01T00:00:00Z"));
  private GatewayFixture gw;
  private TestModule things;

  @AfterEach
  void stop() {
    if (gw != null) {
      gw.close();
    }
    keycloak.close();
    keycloakVertx.close().await();
  }

  /**
   * A gateway with an Eureka tenant {@code eur}: {@code mod-things} (alice may GET, not POST) and
   * {@code mod-caller}, which calls {@code POST /things} back through its X-Okapi-Url.
   *
   * @param systemUser whether mod-caller's descriptor asks for a system user
   * @param settings more {@code eureka.*} settings
   */
  private void start(boolean systemUser, Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(settings);
    all.put("eureka.keycloak-url", keycloak.url());
    all.put("eureka.admin-events-interval", "0");
    gw =
        new GatewayFixture(
            GatewayOptions.defaults(0).withEureka(EurekaOptions.from(Settings.of(all))),
            nanos::get,
            timers);
    gw.createEurekaTenant("eur");
    things =
        TestModule.start(gw.vertx(), r -> r.route().handler(ctx -> ctx.response().end("things")));
    gw.install(
        "eur",
        module(
            THINGS,
            "things",
            handler("GET", "/things", "things.collection.get"),
            handler("POST", "/things", "things.item.post")),
        things.url());
    JsonObject caller = module(CALLER, "caller", handler("GET", "/call", "caller.get"));
    caller
        .getJsonArray("provides")
        .add(
            new JsonObject()
                .put("id", "_timer")
                .put("version", "1.0")
                .put("interfaceType", "system")
                .put(
                    "handlers",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("methods", new JsonArray().add("POST"))
                                .put("pathPattern", "/call/timer")
                                .put("unit", "minute")
                                .put("delay", "1"))));
    if (systemUser) {
      caller.put(
          "metadata",
          new JsonObject()
              .put(
                  "user",
                  new JsonObject().put("type", "system").put("permissions", new JsonArray())));
    }
    gw.install("eur", caller, "http://127.0.0.1:" + startCaller(gw.vertx()).actualPort());
    keycloak.granted.add("/things#GET");
    keycloak.granted.add("/call#GET");
    keycloak.client("eur", FakeKeycloak.SERVICE_CLIENT, SERVICE_SECRET);
    keycloak.client("eur", "eur-login-application", LOGIN_SECRET);
    keycloak.user("eur", "mod-caller", PASSWORD, SYSTEM_USER_ID);
  }

  /** The sidecar's ephemeral store: its test properties' form, under its keys. */
  private Map<String, String> store(String... lines) throws IOException {
    Path file = dir.resolve("secrets.properties");
    Files.writeString(file, String.join("\n", lines) + "\n");
    return Map.of("eureka.secret-store.file", file.toString());
  }

  private Map<String, String> fullStore() throws IOException {
    return store(
        "secret-store.ephemeral.content.folio_eur_sidecar-module-access-client=" + SERVICE_SECRET,
        "secret-store.ephemeral.content.folio_eur_eur-login-application=" + LOGIN_SECRET,
        "secret-store.ephemeral.content.folio_eur_mod-caller=" + PASSWORD);
  }

  /**
   * mod-caller: {@code GET /call?token=pass} calls {@code POST /things} back with the X-Okapi-*
   * headers it got (as okapi-common's and folio-spring-base's clients pass them on), {@code
   * token=none} without X-Okapi-Token; {@code id=} sends that X-Okapi-Request-Id instead. Answers
   * the call back's status, a line break and its body.
   */
  private static HttpServer startCaller(Vertx vertx) {
    HttpClient client = vertx.createHttpClient();
    return vertx
        .createHttpServer()
        .requestHandler(
            req -> {
              RequestOptions back =
                  new RequestOptions()
                      .setMethod(HttpMethod.POST)
                      .setAbsoluteURI(req.getHeader("X-Okapi-Url") + "/things")
                      .putHeader("X-Okapi-Tenant", req.getHeader("X-Okapi-Tenant"))
                      .putHeader("X-Okapi-Request-Id", requestId(req));
              if (!"none".equals(req.getParam("token")) && req.getHeader("X-Okapi-Token") != null) {
                back.putHeader("X-Okapi-Token", req.getHeader("X-Okapi-Token"));
              }
              client
                  .request(back)
                  .compose(
                      r ->
                          r.send()
                              .compose(resp -> resp.body().map(b -> resp.statusCode() + "\n" + b)))
                  .onComplete(
                      done -> req.response().end(done.succeeded() ? done.result() : "failed"));
            })
        .listen(0, "127.0.0.1")
        .await();
  }

  private static String requestId(HttpServerRequest req) {
    String given = req.getParam("id");
    return given != null ? given : req.getHeader("X-Okapi-Request-Id");
  }

  private String alice() {
    return keycloak.token("eur", ALICE, "s1", Instant.now().plusSeconds(600));
  }

  /**
   * @return the status of mod-caller's call back
   */
  private String call(String token, String query) {
    return callBack(token, query).split("\n", 2)[0];
  }

  /**
   * @return the status and body of mod-caller's call back
   */
  private String callBack(String token, String query) {
    return gw.tenant("eur")
        .header("X-Okapi-Token", token)
        .get("/call" + query)
        .then()
        .statusCode(200)
        .extract()
        .asString();
  }

  @Test
  void moduleCallBack_carriesXSystemToken_decidedForIt_theUserFromItsToken() {
    start(false, Map.of("eureka.admin-client-secret", "adm"));
    keycloak.client("master", "folio-backend-admin-client", "adm");
    String alice = alice();
    gw.tenant("eur").header("X-Okapi-Token", alice).post("/things").then().statusCode(403);

    assertThat(call(alice, "")).as("mod-caller's POST /things back").isEqualTo("200");

    Recorded got = things.take();
    assertThat(got.header("X-System-Token")).isNotBlank().isNotEqualTo(alice);
    assertThat(FakeKeycloak.claim(got.header("X-System-Token"), "azp"))
        .isEqualTo(FakeKeycloak.SERVICE_CLIENT);
    assertThat(got.header("X-Okapi-Token")).isEqualTo(alice);
    assertThat(got.header("X-Okapi-User-Id")).isEqualTo(ALICE);
    assertThat(got.header("X-Okapi-Url")).isEqualTo(gw.url());
  }

  /**
   * As an attacker: a client's request is never a module's call back, whatever X-Okapi-Request-Id
   * it sends — a made-up key, a real call's id once that call is answered (a log or a module leaked
   * it), a call of another tenant in flight; it gets no X-System-Token and is decided for its own
   * token. (The module listener this replaced, {@code eureka.module-port}, gave any client that
   * reached it X-System-Token and the System role's grant.)
   */
  @Test
  void clientRequest_anyRequestId_notACallBack_noSystemToken_itsOwnDecision() {
    start(false, Map.of("eureka.admin-client-secret", "adm"));
    keycloak.client("master", "folio-backend-admin-client", "adm");
    String alice = alice();
    assertThat(call(alice, "")).isEqualTo("200");
    String endedCallsId = things.take().header("X-Okapi-Request-Id");

    String madeUp = "123456/things~" + "A".repeat(32);
    for (String id : List.of(madeUp, endedCallsId, endedCallsId + ";654321/things")) {
      gw.tenant("eur")
          .header("X-Okapi-Token", alice)
          .header("X-Okapi-Request-Id", id)
          .header("X-System-Token", "forged")
          .post("/things")
          .then()
          .statusCode(403);
      gw.tenant("eur").header("X-Okapi-Request-Id", id).post("/things").then().statusCode(401);
    }
    // mod-caller itself, calling back with an id that is not its call's: a client's request
    assertThat(call(alice, "?id=" + madeUp)).isEqualTo("403");
    assertThat(things.drain()).isEmpty();
  }

  /**
   * As the hostile probe did: a module on an open endpoint echoes the X-Okapi-Request-Id it got
   * while its answer streams. The client gets the id without the call's key; and where the key
   * leaks anyway (a module's body, its log: the gateway cannot rewrite those), a client replaying
   * it from anywhere but the module's address while the call is in flight is a client: alice's
   * token decided as hers (403, not the System role's 200 with X-System-Token), no token 401. (On
   * ac01f53 the client read the key from the echoed header, and its replay was decided for the
   * System role.)
   */
  @Test
  void echoedKey_replayedByAClientWhileTheCallStreams_noSystemDecision() throws Exception {
    start(false, Map.of("eureka.admin-client-secret", "adm"));
    keycloak.client("master", "folio-backend-admin-client", "adm");
    CompletableFuture<String> leaked = new CompletableFuture<>();
    Promise<Void> release = Promise.promise();
    HttpServer stream =
        gw.vertx()
            .createHttpServer()
            .requestHandler(
                req -> {
                  String id = req.getHeader("X-Okapi-Request-Id");
                  req.response()
                      .setChunked(true)
                      .putHeader("X-Okapi-Request-Id", id)
                      .putHeader("X-Echo", id)
                      .write("streaming " + id + "\n");
                  leaked.complete(id);
                  release.future().onComplete(v -> req.response().end());
                })
            .listen(0, "127.0.0.1")
            .await();
    gw.install(
        "eur",
        module("mod-stream-1.0.0", "stream", handler("GET", "/stream")),
        "http://127.0.0.1:" + stream.actualPort());
    int port = gw.gateway().port();
    try (RawClient reader = RawClient.connectFrom("127.0.0.1", port)) {
      reader.send("GET /stream HTTP/1.1\r\nHost: localhost\r\nX-Okapi-Tenant: eur\r\n\r\n");
      RawClient.Head head = reader.readHead();
      assertThat(head.status()).isEqualTo(200);
      assertThat(head.headers().get("x-okapi-request-id")).matches("\\d{6}/stream");
      assertThat(head.headers()).doesNotContainKey("x-echo");
      String key = leaked.get(1, TimeUnit.MINUTES);
      assertThat(key).containsPattern("~[A-Za-z0-9_-]{32}$");

      for (String token : new String[] {alice(), null}) {
        try (RawClient replay = RawClient.connectFrom("127.0.0.2", port)) {
          replay.send(
              "POST /things HTTP/1.1\r\nHost: localhost\r\nX-Okapi-Tenant: eur\r\n"
                  + "X-Okapi-Request-Id: "
                  + key
                  + "\r\n"
                  + (token == null ? "" : "X-Okapi-Token: " + token + "\r\n")
                  + "Content-Length: 0\r\n\r\n");
          assertThat(replay.readHead().status())
              .as("a replay of the call's key %s a token", token == null ? "without" : "with")
              .isEqualTo(token == null ? 401 : 403);
        }
      }
    } finally {
      release.complete();
      stream.close().await();
    }
    assertThat(things.drain()).as("no replay reached mod-things").isEmpty();
    assertThat(call(alice(), "")).as("mod-caller's own call back still is one").isEqualTo("200");
    assertThat(things.take().header("X-System-Token")).isNotBlank();
  }

  @Test
  void tokenlessCallBack_ofAModuleWithASystemUser_carriesItsToken_credentialsFromTheStore()
      throws IOException {
    start(true, fullStore());
    String alice = alice();

    try (LogCapture log = new LogCapture()) {
      assertThat(call(alice, "?token=none")).isEqualTo("200");

      Recorded got = things.take();
      String systemUser = got.header("X-Okapi-Token");
      assertThat(systemUser).isNotNull().isNotEqualTo(alice);
      assertThat(FakeKeycloak.claim(systemUser, "sub")).isEqualTo("mod-caller");
      assertThat(FakeKeycloak.claim(systemUser, "azp")).isEqualTo("eur-login-application");
      assertThat(got.header("X-Okapi-User-Id")).isEqualTo(SYSTEM_USER_ID);
      assertThat(FakeKeycloak.claim(got.header("X-System-Token"), "azp"))
          .isEqualTo(FakeKeycloak.SERVICE_CLIENT);
      assertThat(keycloak.grants)
          .containsExactlyInAnyOrder("eur mod-caller", "eur " + FakeKeycloak.SERVICE_CLIENT);
      assertThat(keycloak.secretReads).as("all from the store, no admin client").isEmpty();
      assertThat(log.text())
          .doesNotContain(PASSWORD)
          .doesNotContain(LOGIN_SECRET)
          .doesNotContain(SERVICE_SECRET)
          .doesNotContain(systemUser);
    }
  }

  /**
   * A call back with the user's token carries it, no system user's; a tokenless one of a module
   * without a system user is refused 400 as the sidecar's egress refuses it ({@code
   * EgressRequestHandler.setSysUserToken}), not passed on with the System role's grant.
   */
  @Test
  void callBackWithAUsersToken_noSystemUserToken_tokenlessOfAModuleWithoutSystemUser_400()
      throws IOException {
    start(true, fullStore());
    String alice = alice();
    assertThat(call(alice, "")).isEqualTo("200");
    assertThat(things.take().header("X-Okapi-Token")).isEqualTo(alice);
    assertThat(keycloak.grants).doesNotContain("eur mod-caller");

    gw.close();
    gw = null;
    keycloak.grants.clear();
    start(false, fullStore());
    assertThat(callBack(alice(), "?token=none"))
        .startsWith("400\n")
        .contains("System user token is required if the request doesn't contain X-Okapi-Token")
        .contains(CALLER);
    assertThat(things.drain()).isEmpty();
    assertThat(keycloak.grants).doesNotContain("eur mod-caller");
  }

  /**
   * A timer's call (the gateway's own, no user's token) to a module with a system user: what the
   * module calls back meanwhile carries its system user's token, as the call backs of a client's
   * request do.
   */
  @Test
  void timerCall_itsModulesTokenlessCallBack_carriesItsSystemUsersToken() throws IOException {
    start(true, fullStore());

    timers.advanceStarting(Duration.ofMinutes(1));

    Recorded got = things.take();
    assertThat(FakeKeycloak.claim(got.header("X-Okapi-Token"), "sub")).isEqualTo("mod-caller");
    assertThat(got.header("X-Okapi-User-Id")).isEqualTo(SYSTEM_USER_ID);
    assertThat(FakeKeycloak.claim(got.header("X-System-Token"), "azp"))
        .isEqualTo(FakeKeycloak.SERVICE_CLIENT);
  }

  @Test
  void tokens_oneGrantPerTenant_replacedAMinuteBeforeTheyExpire_asTheSidecar() throws IOException {
    start(true, fullStore());
    String alice = alice();
    assertThat(call(alice, "?token=none")).isEqualTo("200");
    assertThat(call(alice, "?token=none")).isEqualTo("200");
    assertThat(keycloak.grants).hasSize(2);

    nanos.addAndGet(TimeUnit.SECONDS.toNanos(239)); // 300 s tokens, used for 240 s
    assertThat(call(alice, "?token=none")).isEqualTo("200");
    assertThat(keycloak.grants).hasSize(2);

    nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
    assertThat(call(alice, "?token=none")).isEqualTo("200");
    assertThat(keycloak.grants)
        .hasSize(4)
        .containsOnly("eur " + FakeKeycloak.SERVICE_CLIENT, "eur mod-caller")
        .filteredOn("eur mod-caller"::equals)
        .hasSize(2);
  }

  @Test
  void usable_aMinuteBeforeExpiry_nineTenthsOfAShortLife() {
    assertThat(ServiceTokens.usableNanos(300, 60)).isEqualTo(TimeUnit.SECONDS.toNanos(240));
    assertThat(ServiceTokens.usableNanos(91, 60)).isEqualTo(TimeUnit.SECONDS.toNanos(31));
    assertThat(ServiceTokens.usableNanos(90, 60)).isEqualTo(TimeUnit.SECONDS.toNanos(81));
    assertThat(ServiceTokens.usableNanos(60, 60)).isEqualTo(TimeUnit.SECONDS.toNanos(54));
    assertThat(ServiceTokens.usableNanos(0, 60)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(1));
    assertThat(Duration.ofNanos(ServiceTokens.usableNanos(600, 0))).hasSeconds(600);
  }

  @Test
  void systemUsersPasswordNotInTheStore_503NamingTheKey_neverTheSecrets() throws IOException {
    start(
        true,
        store(
            "secret-store.ephemeral.content.folio_eur_sidecar-module-access-client="
                + SERVICE_SECRET,
            "secret-store.ephemeral.content.folio_eur_eur-login-application=" + LOGIN_SECRET));

    assertThat(callBack(alice(), "?token=none"))
        .startsWith("503\n")
        .contains("folio_eur_mod-caller")
        .doesNotContain(LOGIN_SECRET)
        .doesNotContain(SERVICE_SECRET);
    assertThat(things.drain()).isEmpty();
  }

  @Test
  void wrongPasswordInTheStore_keycloakRefuses_503_triedOnceMore() throws IOException {
    start(
        true,
        store(
            "secret-store.ephemeral.content.folio_eur_sidecar-module-access-client="
                + SERVICE_SECRET,
            "secret-store.ephemeral.content.folio_eur_eur-login-application=" + LOGIN_SECRET,
            "secret-store.ephemeral.content.folio_eur_mod-caller=not-the-password"));

    assertThat(callBack(alice(), "?token=none"))
        .startsWith("503\n")
        .contains("Keycloak refused a token of system user mod-caller")
        .doesNotContain("not-the-password");
    assertThat(keycloak.grants).isEmpty();
    assertThat(things.drain()).isEmpty();
  }

  @Test
  void badStoreSettings_refusedAtStart_namingTheSetting() throws IOException {
    Path empty = dir.resolve("empty.properties");
    Files.writeString(empty, "something.else=1\n");
    for (Map<String, String> bad :
        List.of(
            Map.of("eureka.secret-store.type", "VAULT"),
            Map.of("eureka.secret-store.file", dir.resolve("missing").toString()),
            Map.of("eureka.secret-store.file", empty.toString()))) {
      Map<String, String> all = new HashMap<>(bad);
      all.put("eureka.keycloak-url", keycloak.url());
      assertThat(
              org.assertj.core.api.Assertions.catchThrowable(
                  () -> EurekaOptions.from(Settings.of(all))))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("eureka.secret-store.");
    }
  }

  @Test
  void store_fileAsTheSidecarWritesIt_elseTheEnvironmentAsQuarkusNamesIt() throws IOException {
    Path file = dir.resolve("s.properties");
    Files.writeString(
        file, "secret-store.ephemeral.content.folio_master_folio-backend-admin-client=a1\n");
    Map<String, String> env =
        Map.of("SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_DIKU_MOD_USERS_BL", "p2");
    SecretStore store = SecretStore.ephemeral("folio", file, env::get);

    assertThat(store.secret("master", "folio-backend-admin-client")).contains("a1");
    assertThat(store.secret("diku", "mod-users-bl")).contains("p2");
    assertThat(store.secret("diku", "mod-other")).isEmpty();
    assertThat(store.key("diku", "diku-login-application"))
        .isEqualTo("folio_diku_diku-login-application");
    assertThat(store.toString()).doesNotContain("a1").doesNotContain("p2");
    assertThat(SecretStore.none().secret("master", "folio-backend-admin-client")).isEmpty();
  }

  @Test
  void adminClientSecret_fromTheStore_whenNotGiven() throws IOException {
    start(
        false, store("secret-store.ephemeral.content.folio_master_folio-backend-admin-client=adm"));
    keycloak.client("master", "folio-backend-admin-client", "adm");

    assertThat(call(alice(), "")).isEqualTo("200");
    assertThat(things.take().header("X-System-Token")).isNotBlank();
    assertThat(keycloak.secretReads)
        .as("the service client's secret read from the realm with the admin client")
        .containsExactly("eur " + FakeKeycloak.SERVICE_CLIENT);
    gw.tenant("eur")
        .header("X-Okapi-Token", alice())
        .post("/things")
        .then()
        .statusCode(403)
        .body(containsString("Keycloak denies"));
  }
}
