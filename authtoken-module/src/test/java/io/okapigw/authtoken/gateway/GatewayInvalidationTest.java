package io.okapigw.authtoken.gateway;

import static io.okapigw.authtoken.TestModule.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.TestModule;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.testsupport.FreePorts;
import io.restassured.http.ContentType;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The calls to the gateway's {@code POST /_/proxy/auth-cache/invalidate}, recorded by a small real
 * HTTP server standing in for the gateway, including one that is down or slow.
 */
@ExtendWith(VertxExtension.class)
class GatewayInvalidationTest {
  private static final String PATH = "/_/proxy/auth-cache/invalidate";

  @TempDir Path dir;
  private final BlockingQueue<JsonObject> calls = new LinkedBlockingQueue<>();
  private TestModule module;
  private final List<HttpServer> gateways = new ArrayList<>();

  @AfterEach
  void tearDown() {
    if (module != null) {
      module.undeploy();
    }
    gateways.forEach(gateway -> await(gateway.close()));
  }

  /** A gateway that records each call, then lets {@code answer} respond (or not). */
  private int startGateway(Vertx vertx, int port, BiConsumer<Integer, HttpServerRequest> answer) {
    AtomicInteger count = new AtomicInteger();
    HttpServer gateway =
        await(
            vertx
                .createHttpServer()
                .requestHandler(
                    req ->
                        req.body()
                            .onSuccess(
                                body -> {
                                  calls.add(
                                      new JsonObject()
                                          .put("method", req.method().name())
                                          .put("path", req.path())
                                          .put("port", req.localAddress().port())
                                          .put("contentType", req.getHeader("Content-Type"))
                                          .put("body", body.toJsonObject()));
                                  answer.accept(count.incrementAndGet(), req);
                                }))
                .listen(port, "127.0.0.1"));
    gateways.add(gateway);
    return gateway.actualPort();
  }

  /**
   * Deploys the module with a 30 s gateway timeout: a gateway that answers does so long before it,
   * however busy the machine (with 300 ms, a late answer made an extra retry).
   */
  private void deploy(Vertx vertx, int gatewayPort) {
    deploy(vertx, gatewayPort, Duration.ofSeconds(30));
  }

  private void deploy(Vertx vertx, int gatewayPort, Duration timeout) {
    deploy(vertx, List.of(gatewayPort), timeout, timeout);
  }

  /** The module telling the gateways on these ports, in this order. */
  private void deploy(Vertx vertx, List<Integer> ports, Duration timeout, Duration failoverAfter) {
    AuthtokenOptions options =
        TestModule.options(dir)
            .withInvalidation(
                new InvalidationOptions(
                    ports.stream().map(port -> "http://127.0.0.1:" + port).toList(),
                    timeout,
                    failoverAfter,
                    Duration.ofMillis(50),
                    InvalidationOptions.RETRIES.defaultValue()));
    module = TestModule.deploy(vertx, options, MutableClock.ofNow());
  }

  /** Revokes a permission of a new user, in the module; answered once the gateway was told. */
  private String revoke() {
    String id = module.createUser("alice", "pw", List.of("a"));
    module
        .request(TestModule.TENANT)
        .body("[\"b\"]")
        .put("/perms/users/" + id + "/permissions")
        .then()
        .statusCode(204);
    return id;
  }

  private JsonObject nextCall() throws InterruptedException {
    JsonObject call = calls.poll(1, TimeUnit.MINUTES);
    assertThat(call).as("a call to the gateway").isNotNull();
    return call;
  }

  private JsonObject nextBody() throws InterruptedException {
    return nextCall().getJsonObject("body");
  }

  @Test
  void everyChange_postsTheMatchingInvalidation(Vertx vertx) throws Exception {
    deploy(vertx, startGateway(vertx, 0, (n, req) -> req.response().setStatusCode(204).end()));
    String id = module.createUser("alice", "pw", List.of("a"));
    String token = module.token("alice", "pw");

    module
        .request(TestModule.TENANT)
        .contentType(ContentType.JSON)
        .body("[\"b\"]")
        .put("/perms/users/" + id + "/permissions")
        .then()
        .statusCode(204);
    JsonObject call = nextCall();
    assertThat(call.getString("method")).isEqualTo("POST");
    assertThat(call.getString("path")).isEqualTo(PATH);
    assertThat(call.getString("contentType")).isEqualTo("application/json");
    assertThat(call.getJsonObject("body"))
        .isEqualTo(new JsonObject().put("tenant", "diku").put("userId", id));

    module
        .request(TestModule.TENANT)
        .body("{\"active\":false}")
        .put("/users/" + id)
        .then()
        .statusCode(204);
    assertThat(nextBody()).isEqualTo(new JsonObject().put("tenant", "diku").put("userId", id));

    module
        .request(TestModule.TENANT)
        .header(OkapiHeaders.TOKEN, token)
        .post("/authn/logout")
        .then()
        .statusCode(204);
    assertThat(nextBody()).isEqualTo(new JsonObject().put("tenant", "diku").put("userId", id));

    module.postPermissionSets("mod-a-1", new JsonArray());
    assertThat(nextBody()).isEqualTo(new JsonObject().put("tenant", "diku"));

    module.request().post("/authtoken/signing-key/rotate").then().statusCode(204);
    assertThat(nextBody()).isEqualTo(new JsonObject());
    assertThat(calls).isEmpty();
  }

  @Test
  void gatewayAnswers503_adminCallSucceeds_andTheInvalidationIsRetried(Vertx vertx)
      throws Exception {
    deploy(
        vertx,
        startGateway(vertx, 0, (n, req) -> req.response().setStatusCode(n == 1 ? 503 : 204).end()));
    String id = module.createUser("alice", "pw", List.of("a"));
    module
        .request(TestModule.TENANT)
        .body("[\"b\"]")
        .put("/perms/users/" + id + "/permissions")
        .then()
        .statusCode(204);
    JsonObject expected = new JsonObject().put("tenant", "diku").put("userId", id);
    assertThat(nextBody()).isEqualTo(expected);
    assertThat(nextBody()).as("retry").isEqualTo(expected);
    assertThat(calls.poll(300, TimeUnit.MILLISECONDS)).as("no retry after success").isNull();
  }

  /**
   * The first call is never answered: the admin call, which waits for the gateway, is answered all
   * the same once the 300 ms timeout has passed, the invalidation already sent (no stopwatch: on a
   * busy machine the answer comes later than a few seconds).
   */
  @Test
  void gatewaySlow_adminCallAnsweredAfterTheTimeout_andRetried(Vertx vertx) throws Exception {
    deploy(
        vertx,
        startGateway(
            vertx,
            0,
            (n, req) -> {
              if (n > 1) {
                req.response().setStatusCode(204).end();
              }
            }),
        Duration.ofMillis(300));
    String id = module.createUser("alice", "pw", List.of("a"));
    module
        .request(TestModule.TENANT)
        .body("[\"b\"]")
        .put("/perms/users/" + id + "/permissions")
        .then()
        .statusCode(204);
    assertThat(calls).as("the invalidation sent before the admin call was answered").isNotEmpty();
    assertThat(nextBody()).isEqualTo(new JsonObject().put("tenant", "diku").put("userId", id));
    assertThat(nextBody())
        .as("retry")
        .isEqualTo(new JsonObject().put("tenant", "diku").put("userId", id));
  }

  @Test
  void gatewayDown_adminCallSucceeds_andTheInvalidationArrivesWhenItComesUp(Vertx vertx)
      throws Exception {
    int port = FreePorts.belowEphemeralRange();
    deploy(vertx, port);
    String id = module.createUser("alice", "pw", List.of("a"));
    module
        .request(TestModule.TENANT)
        .body("[\"b\"]")
        .put("/perms/users/" + id + "/permissions")
        .then()
        .statusCode(204);
    module.request(TestModule.TENANT).get("/perms/users/" + id).then().statusCode(200);
    startGateway(vertx, port, (n, req) -> req.response().setStatusCode(204).end());
    assertThat(nextBody()).isEqualTo(new JsonObject().put("tenant", "diku").put("userId", id));
  }

  @Test
  void severalGateways_firstDown_theNextToldBeforeTheChangeIsAnswered(Vertx vertx)
      throws Exception {
    int down = FreePorts.belowEphemeralRange();
    int up = startGateway(vertx, 0, (n, req) -> req.response().setStatusCode(204).end());
    deploy(vertx, List.of(down, up), Duration.ofSeconds(30), Duration.ofSeconds(30));

    String id = revoke();

    JsonObject call = calls.poll();
    assertThat(call).as("the second gateway told before the revoke answered").isNotNull();
    assertThat(call.getInteger("port")).isEqualTo(up);
    assertThat(call.getJsonObject("body"))
        .isEqualTo(new JsonObject().put("tenant", "diku").put("userId", id));
    assertThat(calls.poll(300, TimeUnit.MILLISECONDS)).as("no retry in the background").isNull();
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void severalGateways_firstHangs_theNextAskedWhileItsCallIsStillOpen(Vertx vertx)
      throws Exception {
    AtomicBoolean hungCallOpen = new AtomicBoolean();
    AtomicBoolean askedWhileOpen = new AtomicBoolean();
    int hung =
        startGateway(
            vertx,
            0,
            (n, req) -> {
              hungCallOpen.set(true);
              req.connection().closeHandler(v -> hungCallOpen.set(false));
            });
    int up =
        startGateway(
            vertx,
            0,
            (n, req) -> {
              askedWhileOpen.set(hungCallOpen.get());
              req.response().setStatusCode(204).end();
            });
    deploy(vertx, List.of(hung, up), Duration.ofMinutes(1), Duration.ofMillis(100));

    revoke();

    assertThat(List.of(nextCall().getInteger("port"), nextCall().getInteger("port")))
        .containsExactly(hung, up);
    assertThat(askedWhileOpen)
        .as("the next gateway asked before the hung one's call timed out")
        .isTrue();
  }

  @Test
  void severalGateways_theOneThatAnsweredIsAskedFirstNextTime(Vertx vertx) throws Exception {
    int failing = startGateway(vertx, 0, (n, req) -> req.response().setStatusCode(503).end());
    int up = startGateway(vertx, 0, (n, req) -> req.response().setStatusCode(204).end());
    deploy(vertx, List.of(failing, up), Duration.ofSeconds(30), Duration.ofSeconds(30));

    String id = revoke();
    assertThat(List.of(nextCall().getInteger("port"), nextCall().getInteger("port")))
        .as("the first revoke: the failing gateway, then the next")
        .containsExactly(failing, up);
    module
        .request(TestModule.TENANT)
        .body("[\"c\"]")
        .put("/perms/users/" + id + "/permissions")
        .then()
        .statusCode(204);
    assertThat(nextCall().getInteger("port")).as("the second revoke").isEqualTo(up);
    assertThat(calls.poll(300, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  void gatewayRefuses400_notRetried(Vertx vertx) throws Exception {
    deploy(vertx, startGateway(vertx, 0, (n, req) -> req.response().setStatusCode(400).end("bad")));
    String id = module.createUser("alice", "pw", List.of("a"));
    module
        .request(TestModule.TENANT)
        .body("[\"b\"]")
        .put("/perms/users/" + id + "/permissions")
        .then()
        .statusCode(204);
    assertThat(nextBody().getString("userId")).isEqualTo(id);
    assertThat(calls.poll(500, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  void noGatewayUrl_everyInvalidationSkipped_succeedsAtOnce(Vertx vertx) {
    GatewayNotifier notifier = GatewayNotifier.create(vertx, InvalidationOptions.defaults(), null);
    assertThat(notifier).isInstanceOf(DisabledGatewayNotifier.class);
    assertThat(notifier.invalidateUser("diku", "u1").succeeded()).isTrue();
    assertThat(notifier.invalidateTenant("diku").succeeded()).isTrue();
    assertThat(notifier.invalidateAll().succeeded()).isTrue();
    assertThat(notifier.close().succeeded()).isTrue();
  }
}
