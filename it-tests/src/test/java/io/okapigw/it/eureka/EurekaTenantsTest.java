package io.okapigw.it.eureka;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.AuthtokenVerticle;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.folio.register.AuthtokenDescriptor;
import io.okapigw.it.AdminCalls;
import io.okapigw.it.Jars;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.Descriptors;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.eureka.EurekaRealm;
import io.okapigw.testsupport.eureka.EurekaRealm.Tokens;
import io.okapigw.testsupport.eureka.KafkaBroker;
import io.okapigw.testsupport.eureka.KeycloakServer;
import io.okapigw.testsupport.process.GatewayCluster;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eureka tenants beside Okapi tenants, against a real Keycloak set up as FOLIO's Eureka sets it up
 * ({@link EurekaRealm}) and a real Kafka broker (KRaft), on a 3-node gateway cluster: tenant {@code
 * diku} on Okapi's auth filter (the authtoken module), tenant {@code eur} on Keycloak.
 */
@ExtendWith(EurekaCheck.class)
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class EurekaTenantsTest {

  private static final String ALICE = UUID.randomUUID().toString();
  private static final String THINGS = "mod-things-1.0.0";
  private static final String CALLER = "mod-caller-1.0.0";

  @TempDir static Path dir;

  private static Vertx vertx;
  private static HttpServer things;
  private static HttpServer caller;
  private static final BlockingQueue<MultiMap> thingsGot = new LinkedBlockingQueue<>();
  private static KafkaBroker kafka;
  private static KeycloakServer keycloak;
  private static EurekaRealm realm;
  private static GatewayCluster cluster;

  /** Gateways first, Keycloak last: its first start builds itself and takes the machine. */
  @BeforeAll
  @Timeout(value = 18, unit = TimeUnit.MINUTES)
  static void start() throws Exception {
    vertx = Vertx.vertx();
    things =
        vertx
            .createHttpServer()
            .requestHandler(
                req -> {
                  thingsGot.add(MultiMap.caseInsensitiveMultiMap().addAll(req.headers()));
                  req.response().end("things");
                })
            .listen(0, "127.0.0.1")
            .await();
    caller = startCaller();
    kafka = KafkaBroker.start(dir, Duration.ofMinutes(3));
    createLogoutTopic();
    int keycloakPort = FreePorts.belowEphemeralRange();
    cluster =
        GatewayCluster.start(
            Jars.gateway(),
            3,
            node ->
                List.of(
                    "--eureka.keycloak-url",
                    KeycloakServer.url(keycloakPort),
                    "--eureka.kafka",
                    kafka.bootstrap(),
                    "--eureka.admin-client-secret",
                    EurekaRealm.ADMIN_CLIENT_SECRET,
                    "--eureka.admin-events-interval",
                    "1s",
                    "--auth.cache.ttl",
                    "10m"));
    keycloak = KeycloakServer.start(dir, keycloakPort, Duration.ofMinutes(10));
    EurekaRealm.adminClient(keycloak.url());
    realm = EurekaRealm.create(keycloak.url(), "eur");
    JsonObject descriptor =
        Descriptors.module(
            THINGS,
            "things",
            Descriptors.handler("GET", "/things", "things.collection.get"),
            Descriptors.handler("POST", "/things", "things.item.post"),
            Descriptors.handler("GET", "/things/{id}", "things.item.get"));
    JsonObject callerDescriptor =
        Descriptors.module(CALLER, "caller", Descriptors.handler("GET", "/call", "caller.get"));
    realm.entitle(descriptor);
    realm.entitle(callerDescriptor);
    realm.role("Librarian", List.of("GET /things", "GET /things/{id}", "GET /call"));
    realm.user("alice", "alice-password", ALICE, "Librarian");
    AdminCalls admin = AdminCalls.at(cluster.url(0));
    given()
        .baseUri(cluster.url(0))
        .body(new JsonObject().put("id", "eur").put("auth", "eureka").encode())
        .post("/_/proxy/tenants")
        .then()
        .statusCode(201);
    admin.createTenant("diku");
    String thingsUrl = "http://127.0.0.1:" + things.actualPort();
    admin.register(descriptor, thingsUrl);
    admin.enable("eur", THINGS);
    admin.register(callerDescriptor, "http://127.0.0.1:" + caller.actualPort());
    admin.enable("eur", CALLER);
    installAuthtoken(admin);
    admin.enable("diku", THINGS);
  }

  /**
   * A module that calls {@code POST /things} back through its X-Okapi-Url with the headers a FOLIO
   * module passes on, and answers that call's status.
   */
  private static HttpServer startCaller() {
    io.vertx.core.http.HttpClient client = vertx.createHttpClient();
    return vertx
        .createHttpServer()
        .requestHandler(
            req ->
                client
                    .request(
                        new io.vertx.core.http.RequestOptions()
                            .setMethod(io.vertx.core.http.HttpMethod.POST)
                            .setAbsoluteURI(req.getHeader("X-Okapi-Url") + "/things")
                            .putHeader("X-Okapi-Tenant", req.getHeader("X-Okapi-Tenant"))
                            .putHeader("X-Okapi-Token", req.getHeader("X-Okapi-Token"))
                            .putHeader("X-Okapi-Request-Id", req.getHeader("X-Okapi-Request-Id")))
                    .compose(r -> r.send())
                    .onComplete(
                        done ->
                            req.response()
                                .end(
                                    done.succeeded()
                                        ? Integer.toString(done.result().statusCode())
                                        : "failed")))
        .listen(0, "127.0.0.1")
        .await();
  }

  /** diku: the real authtoken module as its auth filter. */
  private static void installAuthtoken(AdminCalls admin) throws Exception {
    AuthtokenVerticle authtoken =
        new AuthtokenVerticle(
            AuthtokenOptions.onLoopback(dir)
                .withPasswords(PasswordOptions.cheapest())
                .withBootstrap(
                    List.of(
                        new BootstrapUser(
                            "diku", "dana", "dana", List.of("things.collection.get")))));
    vertx.deployVerticle(authtoken).await();
    admin.register(AuthtokenDescriptor.read(), "http://127.0.0.1:" + authtoken.actualPort());
    admin.enable("diku", "mod-authtoken-1.0.0");
  }

  /** mod-login-keycloak creates its logout topic when a tenant is entitled. */
  private static void createLogoutTopic() throws Exception {
    try (KafkaProducer<String, String> producer = producer()) {
      producer.partitionsFor("folio.eur.mod-login-keycloak.logout");
    }
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
    if (keycloak != null) {
      keycloak.close();
    }
    if (kafka != null) {
      kafka.close();
    }
    if (vertx != null) {
      vertx.close().await();
    }
  }

  private static RequestSpecification eur(int node, String token) {
    return given()
        .baseUri(cluster.url(node))
        .header("X-Okapi-Tenant", "eur")
        .header("Authorization", "Bearer " + token);
  }

  /**
   * @return Keycloak's decisions node {@code i} has asked for tenant eur (its /_/metrics)
   */
  private static double keycloakCalls(int i) {
    return AdminCalls.authCalls(cluster.url(i), "eur");
  }

  private static String sid(String token) {
    String payload =
        new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
    return new JsonObject(payload).getString("sid");
  }

  private static KafkaProducer<String, String> producer() {
    Properties config = new Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return new KafkaProducer<>(config);
  }

  @Test
  void eurekaTenant_keycloakDecides_sameCallAgainNoKeycloakCall_refreshedTokenToo()
      throws Exception {
    Tokens tokens = realm.login("alice", "alice-password");
    double before = keycloakCalls(0);

    eur(0, tokens.access()).get("/things").then().statusCode(200);
    eur(0, tokens.access()).post("/things").then().statusCode(403);
    assertThat(keycloakCalls(0) - before).isEqualTo(2);

    eur(0, tokens.access()).get("/things").then().statusCode(200);
    eur(0, realm.refresh(tokens).access()).get("/things").then().statusCode(200);
    assertThat(keycloakCalls(0) - before).as("cached: no Keycloak call").isEqualTo(2);
  }

  @Test
  void moduleGetsHeadersAsTheSidecarSetsThem() throws Exception {
    Tokens tokens = realm.login("alice", "alice-password");
    thingsGot.clear();

    eur(1, tokens.access())
        .header("User-Agent", "mgr-tenant-entitlements")
        .get("/things/1")
        .then()
        .statusCode(200);

    MultiMap got = thingsGot.poll(1, TimeUnit.MINUTES);
    assertThat(got.get("X-Okapi-Token")).isEqualTo(tokens.access());
    assertThat(got.get("X-Okapi-User-Id")).isEqualTo(ALICE);
    assertThat(got.get("Authorization")).isNull();
    assertThat(got.get("X-Okapi-Tenant")).isEqualTo("eur");
    // issue 46: as the sidecar's RequestForwardingService and SidecarSignatureFilter
    assertThat(got.get("User-Agent")).isNull();
    assertThat(got.get("X-Okapi-Match-Path-Pattern")).isNull();
    assertThat(got.get("X-Okapi-request-timestamp")).isNull();
    assertThat(got.get("X-Okapi-Sidecar-Signature")).hasSize(44);
  }

  @Test
  void okapiTenantBeside_itsAuthFilterDecides_tokensOfTheOtherKindRefused() throws Exception {
    String dana = AdminCalls.login(cluster.url(0), "diku", "dana", "dana");
    Tokens alice = realm.login("alice", "alice-password");

    given()
        .baseUri(cluster.url(0))
        .header("X-Okapi-Tenant", "diku")
        .header("X-Okapi-Token", dana)
        .get("/things")
        .then()
        .statusCode(200);
    given()
        .baseUri(cluster.url(0))
        .header("X-Okapi-Tenant", "diku")
        .header("X-Okapi-Token", alice.access())
        .get("/things")
        .then()
        .statusCode(401);
    eur(0, dana).get("/things").then().statusCode(401);
  }

  @Test
  void logoutEvent_everyNodeAsksKeycloakAgain_refusedOnceKeycloakEndedTheSession()
      throws Exception {
    Tokens tokens = realm.login("alice", "alice-password");
    double[] before = new double[3];
    for (int i = 0; i < 3; i++) {
      eur(i, tokens.access()).get("/things").then().statusCode(200);
      eur(i, tokens.access()).get("/things").then().statusCode(200);
      before[i] = keycloakCalls(i);
    }

    // as mod-login-keycloak: the event first, then Keycloak's logout
    JsonObject event =
        new JsonObject()
            .put("userId", ALICE)
            .put("sessionId", sid(tokens.access()))
            .put("type", "LOGOUT");
    try (KafkaProducer<String, String> producer = producer()) {
      producer
          .send(new ProducerRecord<>("folio.eur.mod-login-keycloak.logout", ALICE, event.encode()))
          .get();
    }
    realm.logout(tokens);

    for (int i = 0; i < 3; i++) {
      int node = i;
      Await.until(
          () -> eur(node, tokens.access()).get("/things").statusCode() == 401,
          "node " + node + " refuses the logged-out session's token");
      assertThat(keycloakCalls(node))
          .as("node %d asked Keycloak again", node)
          .isGreaterThan(before[node]);
    }
  }

  /**
   * alice may not POST /things herself; a module she calls may, as in Eureka: its call carries
   * {@code X-System-Token}, whose service account has the System role.
   */
  @Test
  void moduleToModuleCall_carriesXSystemToken_decidedForTheSystemToken() throws Exception {
    Tokens tokens = realm.login("alice", "alice-password");
    eur(2, tokens.access()).post("/things").then().statusCode(403);
    thingsGot.clear();

    String status =
        eur(2, tokens.access()).get("/call").then().statusCode(200).extract().asString();

    assertThat(status).isEqualTo("200");
    MultiMap got = thingsGot.poll(1, TimeUnit.MINUTES);
    assertThat(got.get("X-System-Token")).isNotBlank().isNotEqualTo(tokens.access());
    assertThat(got.get("X-Okapi-Token")).isEqualTo(tokens.access());
    assertThat(got.get("X-Okapi-User-Id")).isEqualTo(ALICE);
  }

  @Test
  void revokedRole_refusedWithinTheAdminEventsBound_everyNode() throws Exception {
    realm.user("bob", "bob-password", UUID.randomUUID().toString(), "Librarian");
    Tokens tokens = realm.login("bob", "bob-password");
    for (int i = 0; i < 3; i++) {
      eur(i, tokens.access()).get("/things").then().statusCode(200);
    }

    // auth.cache.ttl is 10 minutes: a refusal within Await's patience is the admin events' doing
    realm.revoke("bob", "Librarian");

    for (int i = 0; i < 3; i++) {
      int node = i;
      Await.until(
          () -> eur(node, tokens.access()).get("/things").statusCode() == 403,
          "node " + node + " refuses bob's revoked role");
    }
  }
}
