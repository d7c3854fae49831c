package io.okapigw.it.eureka;

import static io.restassured.RestAssured.given;

import io.okapigw.it.AdminCalls;
import io.okapigw.it.Jars;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.eureka.EurekaRealm;
import io.okapigw.testsupport.eureka.KafkaBroker;
import io.okapigw.testsupport.eureka.KeycloakServer;
import io.okapigw.testsupport.process.GatewayCluster;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The same two modules ({@link FanOutModules}) for one Eureka tenant {@value #TENANT}, behind real
 * folio-module-sidecars (one per module, as Eureka runs them, reading stubs of FOLIO's managers)
 * and behind our gateway (one node), with one real Keycloak (a realm set up as FOLIO sets it up:
 * {@link EurekaRealm}) and one real Kafka broker. Each side reaches Keycloak through a {@link
 * KeycloakCounter} of its own.
 */
final class SideBySide implements AutoCloseable {

  static final String TENANT = "eur";
  static final String LIBRARIAN = "Librarian";
  static final String WRITER = "Writer";
  static final String ALICE = UUID.randomUUID().toString();
  static final String BOB = UUID.randomUUID().toString();
  static final String CAROL = UUID.randomUUID().toString();
  static final String DORA = UUID.randomUUID().toString();

  final Vertx vertx;
  final FanOutModules modules;
  KafkaBroker kafka;
  KeycloakServer keycloak;
  EurekaRealm realm;
  KeycloakCounter sidecarsKeycloak;
  KeycloakCounter oursKeycloak;
  EurekaManagers managers;
  GatewayCluster ours;
  ModuleSidecar thingsSidecar;
  ModuleSidecar callerSidecar;

  private SideBySide(boolean recordHeaders) {
    vertx = Vertx.vertx();
    modules = FanOutModules.start(vertx, recordHeaders);
  }

  /**
   * @return why the side-by-side cannot run here (no sidecar built), or empty
   */
  static Optional<String> missing() {
    return ModuleSidecar.missing();
  }

  /**
   * Starts everything: Kafka, our gateway (before Keycloak: Keycloak's first start builds itself
   * and takes the machine), Keycloak and the realm, then the two sidecars.
   *
   * @param dir logs and Kafka's data
   * @param oursSettings more settings of our gateway
   */
  static SideBySide start(Path dir, boolean recordHeaders, List<String> oursSettings)
      throws Exception {
    SideBySide s = new SideBySide(recordHeaders);
    try {
      s.startAll(dir, oursSettings);
      return s;
    } catch (Exception | Error e) {
      s.close();
      throw e;
    }
  }

  private void startAll(Path dir, List<String> oursSettings) throws Exception {
    kafka = KafkaBroker.start(dir, Duration.ofMinutes(3));
    logoutTopic();
    int keycloakPort = FreePorts.belowEphemeralRange();
    String keycloakUrl = KeycloakServer.url(keycloakPort);
    sidecarsKeycloak = KeycloakCounter.start(vertx, keycloakUrl);
    oursKeycloak = KeycloakCounter.start(vertx, keycloakUrl);
    List<String> settings =
        new ArrayList<>(
            List.of(
                "--eureka.keycloak-url",
                oursKeycloak.url(),
                "--eureka.keycloak-issuer-url",
                keycloakUrl,
                "--eureka.kafka",
                kafka.bootstrap(),
                "--eureka.admin-client-secret",
                EurekaRealm.ADMIN_CLIENT_SECRET));
    settings.addAll(oursSettings);
    ours = GatewayCluster.start(Jars.gateway(), 1, node -> settings);
    keycloak = KeycloakServer.start(dir, keycloakPort, Duration.ofMinutes(10));
    EurekaRealm.adminClient(keycloak.url());
    realm = EurekaRealm.create(keycloak.url(), TENANT);
    realm.entitle(FanOutModules.THINGS_DESCRIPTOR);
    realm.entitle(FanOutModules.CALLER_DESCRIPTOR);
    realm.role(LIBRARIAN, List.of("GET /things", "GET /things/{id}", "GET /call", "GET /checkout"));
    realm.role(WRITER, List.of("POST /things", "DELETE /things/{id}"));
    realm.user("alice", "alice-password", ALICE, LIBRARIAN);
    realm.user("bob", "bob-password", BOB, LIBRARIAN);
    realm.user("carol", "carol-password", CAROL);
    realm.user("dora", "dora-password", DORA, WRITER);
    onOurs();
    managers = EurekaManagers.start(vertx, TENANT);
    int thingsPort = FreePorts.belowEphemeralRange();
    int callerPort = FreePorts.belowEphemeralRange();
    String thingsLocation = "http://127.0.0.1:" + thingsPort;
    managers.module(FanOutModules.THINGS_DESCRIPTOR, thingsLocation, List.of());
    managers.module(
        FanOutModules.CALLER_DESCRIPTOR,
        "http://127.0.0.1:" + callerPort,
        List.of(Map.entry(FanOutModules.THINGS_DESCRIPTOR, thingsLocation)));
    Map<String, String> secrets =
        Map.of(
            "folio_master_" + EurekaRealm.ADMIN_CLIENT,
            EurekaRealm.ADMIN_CLIENT_SECRET,
            "folio_" + TENANT + "_" + EurekaRealm.SERVICE_CLIENT,
            realm.serviceSecret(),
            "folio_" + TENANT + "_" + TENANT + "-login-application",
            realm.loginSecret());
    thingsSidecar =
        ModuleSidecar.start(
            sidecar("mod-things", thingsPort, modules.thingsUrl(), secrets),
            dir.resolve("sidecar-things.log"),
            Duration.ofMinutes(3));
    callerSidecar =
        ModuleSidecar.start(
            sidecar("mod-caller", callerPort, modules.callerUrl(), secrets),
            dir.resolve("sidecar-caller.log"),
            Duration.ofMinutes(3));
  }

  private ModuleSidecar.Settings sidecar(
      String name, int port, String moduleUrl, Map<String, String> secrets) {
    return new ModuleSidecar.Settings(
        name,
        "1.0.0",
        port,
        moduleUrl,
        managers.url(),
        sidecarsKeycloak.url(),
        kafka.bootstrap(),
        secrets);
  }

  private void onOurs() throws IOException {
    AdminCalls admin = AdminCalls.at(ours.url(0));
    given()
        .baseUri(ours.url(0))
        .body(new JsonObject().put("id", TENANT).put("auth", "eureka").encode())
        .post("/_/proxy/tenants")
        .then()
        .statusCode(201);
    admin.register(FanOutModules.THINGS_DESCRIPTOR, modules.thingsUrl());
    admin.enable(TENANT, FanOutModules.THINGS);
    admin.register(FanOutModules.CALLER_DESCRIPTOR, modules.callerUrl());
    admin.enable(TENANT, FanOutModules.CALLER);
  }

  /** mod-login-keycloak creates its logout topic when a tenant is entitled. */
  private void logoutTopic() {
    try (KafkaProducer<String, String> producer = producer()) {
      producer.partitionsFor(logoutTopicName());
    }
  }

  private static String logoutTopicName() {
    return "folio." + TENANT + ".mod-login-keycloak.logout";
  }

  /** Sends mod-login-keycloak's logout event of that session, as its logout does. */
  void logoutEvent(String userId, String sessionId) throws Exception {
    JsonObject event =
        new JsonObject().put("userId", userId).put("sessionId", sessionId).put("type", "LOGOUT");
    try (KafkaProducer<String, String> producer = producer()) {
      producer.send(new ProducerRecord<>(logoutTopicName(), userId, event.encode())).get();
    }
  }

  private KafkaProducer<String, String> producer() {
    java.util.Properties config = new java.util.Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return new KafkaProducer<>(config);
  }

  /**
   * @return where Eureka's router (Kong) would send a request for {@code path}: the sidecar of the
   *     module that provides it
   */
  String sidecarFor(String path) {
    return path.startsWith("/things") ? thingsSidecar.url() : callerSidecar.url();
  }

  String oursUrl() {
    return ours.url(0);
  }

  @Override
  public void close() {
    for (AutoCloseable c :
        new AutoCloseable[] {
          callerSidecar,
          thingsSidecar,
          ours,
          keycloak,
          kafka,
          managers,
          sidecarsKeycloak,
          oursKeycloak,
          modules
        }) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          System.err.println("closing " + c + ": " + e);
        }
      }
    }
    vertx.close().await();
  }
}
