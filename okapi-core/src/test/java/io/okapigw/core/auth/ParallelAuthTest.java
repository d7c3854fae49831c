package io.okapigw.core.auth;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.config.AuthParallel;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.testsupport.Await;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code auth.parallel=safe}: the auth filter holds every answer until the test releases it, so
 * what the handler sees before the decision, and what the client gets after, are exact. A handler
 * runs before the decision only for a token the auth module has already accepted (for another
 * route), and then only with the user it named and that token; a request without a token, with a
 * forged one, or with one the auth module never accepted waits for the decision, and a refused one
 * never reaches its handler.
 */
class ParallelAuthTest {

  private static final String SECRET_BODY = "secret-handler-body";

  private GatewayFixture gw;
  private TestModule items;
  private final AtomicReference<Promise<Integer>> decision = new AtomicReference<>();
  private HttpClientAgent client;

  @BeforeEach
  void start() {
    gw = new GatewayFixture(GatewayOptions.defaults(0).withAuthParallel(AuthParallel.SAFE));
    gw.createTenant("diku");
    TestModule auth =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx -> {
                          Promise<Integer> verdict = Promise.promise();
                          decision.set(verdict);
                          verdict
                              .future()
                              .onSuccess(
                                  status ->
                                      ctx.response()
                                          .setStatusCode(status)
                                          .putHeader("X-Okapi-User-Id", "u1")
                                          .end(status == 202 ? "" : "denied by auth"));
                        }));
    items =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx ->
                            ctx.response().putHeader("X-Handler-Secret", "leak").end(SECRET_BODY)));
    gw.install("diku", authModule("mod-auth-1.0.0"), auth.url());
    gw.install(
        "diku",
        module(
            "mod-items-1.0.0",
            "items",
            handler("*", "/items/{id}", "items.get"),
            handler("GET", "/other"),
            handler("GET", "/needs-module-perms")
                .put("modulePermissions", new JsonArray().add("storage.get"))),
        items.url());
    client = gw.vertx().createHttpClient();
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  private static String token(String userId) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    return b64.encodeToString("{\"alg\":\"HS256\"}".getBytes(StandardCharsets.UTF_8))
        + "."
        + b64.encodeToString(
            ("{\"user_id\":\"" + userId + "\",\"tenant\":\"diku\"}")
                .getBytes(StandardCharsets.UTF_8))
        + ".sig";
  }

  private Future<HttpClientResponse> send(HttpMethod method, String path) {
    return send(method, path, token("u1"));
  }

  private Future<HttpClientResponse> send(HttpMethod method, String path, String token) {
    RequestOptions options =
        new RequestOptions()
            .setMethod(method)
            .setAbsoluteURI(gw.url() + path)
            .putHeader("X-Okapi-Tenant", "diku");
    if (token != null) {
      options.putHeader("X-Okapi-Token", token);
    }
    return client.request(options).compose(req -> req.send());
  }

  /** The auth module accepts the token once, for another route: its identity is then known. */
  private void confirm(String token) throws Exception {
    Future<Answer> answer = read(send(HttpMethod.GET, "/other", token));
    awaitAuthCall();
    decide(202);
    assertThat(answer.await(1, TimeUnit.MINUTES).status()).isEqualTo(200);
    items.take();
    decision.set(null);
  }

  /** A refused request: the client gets the refusal, and the handler never got the request. */
  private void assertRefusedWithoutTheHandler(String token, int refusal) throws Exception {
    Future<Answer> answer = read(send(HttpMethod.GET, "/items/1", token));
    awaitAuthCall();
    decide(refusal);
    Answer a = answer.await(1, TimeUnit.MINUTES);
    assertThat(a.status()).isEqualTo(refusal);
    assertThat(a.body()).isEqualTo("denied by auth");
    assertThat(items.pending()).as("requests the handler got").isZero();
  }

  private record Answer(int status, String body, String secretHeader) {}

  private static Future<Answer> read(Future<HttpClientResponse> response) {
    return response.compose(
        r ->
            r.body()
                .map(
                    b ->
                        new Answer(r.statusCode(), b.toString(), r.getHeader("X-Handler-Secret"))));
  }

  private void awaitAuthCall() {
    Await.until(() -> decision.get() != null, "the auth module called");
  }

  private void decide(int status) {
    gw.vertx().runOnContext(v -> decision.get().complete(status));
  }

  @Test
  void tokenless_refused_handlerNeverRuns() throws Exception {
    assertRefusedWithoutTheHandler(null, 401);
  }

  @Test
  void unsignedTokenNamingAUser_refused_handlerNeverRunsAsThatUser() throws Exception {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String forged =
        b64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8))
            + "."
            + b64.encodeToString(
                "{\"sub\":\"diku_admin\",\"user_id\":\"admin-id\",\"tenant\":\"diku\"}"
                    .getBytes(StandardCharsets.UTF_8))
            + ".";
    assertRefusedWithoutTheHandler(forged, 401);
  }

  @Test
  void tokenTheAuthModuleNeverAccepted_refused_handlerNeverRuns() throws Exception {
    assertRefusedWithoutTheHandler(token("u1"), 403);
  }

  @Test
  void confirmedToken_afterAnInvalidationOfIt_waitsForTheDecisionAgain() throws Exception {
    confirm(token("u1"));
    gw.request()
        .body("{\"token\":\"" + token("u1") + "\"}")
        .post("/_/proxy/auth-cache/invalidate")
        .then()
        .statusCode(204);

    assertRefusedWithoutTheHandler(token("u1"), 401);
  }

  @Test
  void confirmedToken_ofAnotherTenant_waitsForTheDecision() throws Exception {
    confirm(token("u1"));
    gw.createTenant("other");
    gw.enable("other", "mod-auth-1.0.0");
    gw.enable("other", "mod-items-1.0.0");

    Future<Answer> answer =
        read(
            client
                .request(
                    new RequestOptions()
                        .setAbsoluteURI(gw.url() + "/items/1")
                        .putHeader("X-Okapi-Tenant", "other")
                        .putHeader("X-Okapi-Token", token("u1")))
                .compose(req -> req.send()));
    awaitAuthCall();
    decide(401);
    assertThat(answer.await(1, TimeUnit.MINUTES).status()).isEqualTo(401);
    assertThat(items.pending()).isZero();
  }

  @Test
  void confirmedToken_handlerRunsBeforeTheDecision_asTheConfirmedUser_bodyReleasedAfter()
      throws Exception {
    confirm(token("u1"));
    Future<Answer> answer = read(send(HttpMethod.GET, "/items/1"));
    awaitAuthCall();
    var seen = items.take();
    assertThat(seen.header("X-Okapi-User-Id")).isEqualTo("u1");
    assertThat(seen.header("X-Okapi-Token")).isEqualTo(token("u1"));
    assertThat(seen.header("X-Okapi-Permissions")).as("none before the decision").isNull();
    assertThat(answer.isComplete()).as("nothing reaches the client before the decision").isFalse();
    decide(202);
    Answer a = answer.await(1, TimeUnit.MINUTES);
    assertThat(a.status()).isEqualTo(200);
    assertThat(a.body()).isEqualTo(SECRET_BODY);
  }

  @Test
  void confirmedToken_refusedForThisRoute_clientGetsTheRefusalAndNoByteOfTheHandler()
      throws Exception {
    confirm(token("u1"));
    Future<Buffer> raw =
        send(HttpMethod.GET, "/items/1")
            .compose(
                r ->
                    r.body()
                        .map(
                            b ->
                                Buffer.buffer(r.statusCode() + "|" + r.headers().names() + "|")
                                    .appendBuffer(b)));
    awaitAuthCall();
    items.take();
    decide(403);
    String everything = raw.await(1, TimeUnit.MINUTES).toString();
    assertThat(everything)
        .startsWith("403|")
        .endsWith("denied by auth")
        .doesNotContain(SECRET_BODY)
        .doesNotContainIgnoringCase("X-Handler-Secret");
  }

  @Test
  void post_staysSequential_handlerNeverSeesARefusedRequest() throws Exception {
    Future<Answer> answer = read(send(HttpMethod.POST, "/items/1"));
    awaitAuthCall();
    decide(401);
    assertThat(answer.await(1, TimeUnit.MINUTES).status()).isEqualTo(401);
    assertThat(items.pending()).isZero();
  }

  @Test
  void routeWithModulePermissions_staysSequential() throws Exception {
    Future<Answer> answer = read(send(HttpMethod.GET, "/needs-module-perms"));
    awaitAuthCall();
    decide(403);
    assertThat(answer.await(1, TimeUnit.MINUTES).status()).isEqualTo(403);
    assertThat(items.pending()).isZero();
  }
}
