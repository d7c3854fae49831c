package io.okapigw.authtoken.gateway;

import static io.okapigw.authtoken.TestModule.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.LogCapture;
import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.TestModule;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.token.ForgedTokens;
import io.okapigw.authtoken.token.SigningKey;
import io.okapigw.authtoken.token.TokenOptions;
import io.okapigw.authtoken.token.TokenService;
import io.okapigw.authtoken.users.BootstrapUser;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The token an invalidation carries, checked as a gateway protecting its admin API (as Okapi 6.1.5
 * protects {@code /_/}) checks it: routed for {@code supertenant}, the module's own filter asked
 * with {@code X-Okapi-Permissions-Required: okapi.proxy.auth-cache.invalidate}.
 */
@ExtendWith(VertxExtension.class)
class InvalidationTokenTest {
  private static final String PATH = "/_/proxy/auth-cache/invalidate";
  private static final String SUPER = GatewayNotifier.SUPERTENANT;
  private static final String PERM = GatewayNotifier.INVALIDATE_PERMISSION;

  @TempDir Path dir;
  private final MutableClock clock = MutableClock.ofNow();
  private final BlockingQueue<Attempt> attempts = new LinkedBlockingQueue<>();
  private TestModule module;
  private HttpServer gateway;
  private HttpClient client;

  /**
   * One invalidation as the gateway received it.
   *
   * @param tenant its {@code X-Okapi-Tenant}
   * @param token its {@code X-Okapi-Token}
   * @param filterStatus what the module's filter answered for it
   */
  record Attempt(String tenant, String token, int filterStatus) {}

  @AfterEach
  void tearDown() {
    if (module != null) {
      module.undeploy();
    }
    if (gateway != null) {
      await(gateway.close());
      await(client.close());
    }
  }

  /**
   * Starts a gateway that asks the module's filter about each invalidation (as for any {@code /_/}
   * call once an auth module is enabled for the supertenant) and answers 204 if granted, else the
   * filter's status; {@code answer} may override that per call number.
   */
  private void deploy(Vertx vertx, IntUnaryOperator answer, AuthtokenOptions options) {
    client = vertx.createHttpClient();
    AtomicInteger count = new AtomicInteger();
    gateway =
        await(
            vertx
                .createHttpServer()
                .requestHandler(
                    req ->
                        req.body()
                            .compose(body -> askFilter(req))
                            .onSuccess(
                                status -> {
                                  int n = count.incrementAndGet();
                                  attempts.add(
                                      new Attempt(
                                          req.getHeader(OkapiHeaders.TENANT),
                                          req.getHeader(OkapiHeaders.TOKEN),
                                          status));
                                  int own = answer.applyAsInt(n);
                                  req.response()
                                      .setStatusCode(own != 0 ? own : status == 202 ? 204 : status)
                                      .end();
                                }))
                .listen(0, "127.0.0.1"));
    module =
        TestModule.deploy(
            vertx,
            options.withInvalidation(
                new InvalidationOptions(
                    List.of("http://127.0.0.1:" + gateway.actualPort()),
                    Duration.ofSeconds(30), // far from the calls' latency on a busy machine
                    Duration.ofSeconds(30),
                    Duration.ofMillis(20),
                    InvalidationOptions.RETRIES.defaultValue())),
            clock);
  }

  private void deploy(Vertx vertx, IntUnaryOperator answer) {
    deploy(vertx, answer, TestModule.options(dir));
  }

  /** The filter call the gateway makes for {@code POST /_/proxy/auth-cache/invalidate}. */
  private Future<Integer> askFilter(HttpServerRequest req) {
    RequestOptions call =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setHost("127.0.0.1")
            .setPort(module.port())
            .setURI(PATH)
            .putHeader(OkapiHeaders.TENANT, req.getHeader(OkapiHeaders.TENANT))
            .putHeader(OkapiHeaders.MODULE_PERMISSIONS, "{}")
            .putHeader(OkapiHeaders.PERMISSIONS_REQUIRED, PERM)
            .putHeader(OkapiHeaders.URL, "http://127.0.0.1:" + gateway.actualPort());
    if (req.getHeader(OkapiHeaders.TOKEN) != null) {
      call.putHeader(OkapiHeaders.TOKEN, req.getHeader(OkapiHeaders.TOKEN));
    }
    return client
        .request(call)
        .compose(r -> r.send())
        .compose(resp -> resp.body().map(b -> resp.statusCode()));
  }

  /** The same filter call, made by the test. */
  private RequestSpecification filterCall(String token) {
    RequestSpecification request =
        module
            .request(SUPER)
            .header(OkapiHeaders.MODULE_PERMISSIONS, "{}")
            .header(OkapiHeaders.PERMISSIONS_REQUIRED, PERM);
    return token == null ? request : request.header(OkapiHeaders.TOKEN, token);
  }

  private Attempt nextAttempt() throws InterruptedException {
    Attempt attempt = attempts.poll(1, TimeUnit.MINUTES);
    assertThat(attempt).as("an invalidation at the gateway").isNotNull();
    return attempt;
  }

  private void changePermissions(String userId) {
    module
        .request(TestModule.TENANT)
        .body("[\"b\"]")
        .put("/perms/users/" + userId + "/permissions")
        .then()
        .statusCode(204);
  }

  private TokenService sameKeyTokens(Vertx vertx) {
    return new TokenService(
        await(SigningKey.load(vertx, dir.resolve("signing.key"))), clock, TokenOptions.defaults());
  }

  @Test
  void
      invalidation_carriesASupertenantTokenWithOnlyTheInvalidatePermission_theModulesFilterGrantsIt(
          Vertx vertx) throws Exception {
    deploy(vertx, n -> 0);
    changePermissions(module.createUser("alice", "pw", List.of("a")));

    Attempt attempt = nextAttempt();
    assertThat(attempt.tenant()).isEqualTo("supertenant");
    assertThat(attempt.filterStatus())
        .as("the module's filter, asked as the gateway asks it")
        .isEqualTo(202);
    JsonObject claims = ForgedTokens.payload(attempt.token());
    assertThat(claims.getString("tenant")).isEqualTo("supertenant");
    assertThat(claims.getJsonArray("extra_permissions"))
        .containsExactly("okapi.proxy.auth-cache.invalidate");
    assertThat(claims.getString("sub")).isEqualTo(TokenService.ANONYMOUS);
    assertThat(claims.getValue("user_id")).isNull();
    assertThat(claims.getLong("exp")).isEqualTo(clock.instant().getEpochSecond() + 60);
  }

  @Test
  void invalidationToken_neverOutlivesAShorterTokenTtl(Vertx vertx) throws Exception {
    deploy(
        vertx,
        n -> 0,
        TestModule.options(dir)
            .withTokens(TokenOptions.defaults().withTtl(Duration.ofSeconds(20))));
    changePermissions(module.createUser("alice", "pw", List.of("a")));
    Attempt attempt = nextAttempt();
    assertThat(attempt.filterStatus()).isEqualTo(202);
    assertThat(ForgedTokens.payload(attempt.token()).getLong("exp"))
        .isEqualTo(clock.instant().getEpochSecond() + 20);
  }

  @Test
  void retryAfterTheTokenExpired_carriesAFreshToken_granted(Vertx vertx) throws Exception {
    deploy(
        vertx,
        n -> {
          if (n == 1) {
            clock.advance(
                Duration.ofMinutes(5)); // a long back-off: the first token has expired by the retry
            return 503;
          }
          return 0;
        });
    changePermissions(module.createUser("alice", "pw", List.of("a")));

    Attempt first = nextAttempt();
    Attempt retry = nextAttempt();
    assertThat(first.filterStatus()).isEqualTo(202);
    assertThat(retry.token()).isNotEqualTo(first.token());
    assertThat(retry.filterStatus()).isEqualTo(202);
    filterCall(first.token()).post(PATH).then().statusCode(401);
    assertThat(attempts.poll(200, TimeUnit.MILLISECONDS)).as("no retry after success").isNull();
  }

  @Test
  void gatewayAnswers401_invalidationRetried(Vertx vertx) throws Exception {
    deploy(vertx, n -> n == 1 ? 401 : 0);
    changePermissions(module.createUser("alice", "pw", List.of("a")));
    nextAttempt();
    assertThat(nextAttempt().filterStatus()).as("retry").isEqualTo(202);
  }

  @Test
  void filter_refusesTokensForAnotherTenantOrWithoutThePermission(Vertx vertx) {
    AuthtokenOptions options =
        TestModule.options(dir)
            .withBootstrap(
                List.of(
                    new BootstrapUser(
                        SUPER, "operator", "pw", List.of("okapi.proxy.modules.get"))));
    deploy(vertx, n -> 0, options);
    TokenService tokens = sameKeyTokens(vertx);
    Duration minute = Duration.ofMinutes(1);

    filterCall(tokens.anonymousToken(SUPER, List.of(PERM), minute))
        .post(PATH)
        .then()
        .statusCode(202);
    filterCall(tokens.anonymousToken("diku", List.of(PERM), minute))
        .post(PATH)
        .then()
        .statusCode(403);
    filterCall(tokens.anonymousToken(SUPER, List.of(), minute)).post(PATH).then().statusCode(403);
    filterCall(tokens.anonymousToken(SUPER, List.of("okapi.proxy.auth-cache.get"), minute))
        .post(PATH)
        .then()
        .statusCode(403);
    module.createUser("alice", "pw", List.of(PERM));
    filterCall(module.token("alice", "pw")).post(PATH).then().statusCode(403);
    String operator =
        module
            .request(SUPER)
            .body("{\"username\":\"operator\",\"password\":\"pw\"}")
            .post("/authn/login")
            .then()
            .statusCode(201)
            .extract()
            .header(OkapiHeaders.TOKEN);
    filterCall(operator).post(PATH).then().statusCode(403);
    filterCall(null).post(PATH).then().statusCode(401);
  }

  @Test
  void invalidations_neverLogTheToken(Vertx vertx) throws Exception {
    try (LogCapture logs = new LogCapture("io.okapigw.authtoken")) {
      deploy(vertx, n -> n == 1 ? 503 : n == 3 ? 400 : 0);
      String alice = module.createUser("alice", "pw", List.of("a"));
      changePermissions(alice); // 503, logged before the admin call returns
      Attempt first = nextAttempt();
      Attempt retry = nextAttempt(); // 204 in the background
      changePermissions(alice); // 400
      Attempt refused = nextAttempt();
      changePermissions(alice); // 204
      Attempt granted = nextAttempt();

      assertThat(logs.text())
          .contains("retrying in the background")
          .contains("gateway refused")
          .contains("gateway invalidated");
      for (Attempt attempt : List.of(first, retry, refused, granted)) {
        assertThat(logs.text()).doesNotContain(attempt.token());
      }
      assertThat(logs.text())
          .doesNotContain("eyJhbGciOiJIUzI1NiJ9"); // how every token the module signs starts
    }
  }
}
