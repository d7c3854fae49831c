package io.okapigw.it.eureka;

import static io.restassured.RestAssured.given;

import io.okapigw.it.Jars;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.Descriptors;
import io.okapigw.testsupport.eureka.KafkaBroker;
import io.okapigw.testsupport.process.GatewayCluster;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
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
 * Issue 46 on a 3-node cluster and a real Kafka broker: mgr-tenant-entitlements' {@code
 * folio.entitlement} events for 3 modules x 2 tenants sent at once, an upgrade and a revocation
 * among them; every node routes each tenant's entitled modules and no revoked one, long before
 * {@code eureka.entitlements-refresh} (a day here). mgr-tenant-entitlements and mgr-applications
 * are stand-ins in their documented JSON; the handlers require no permissions, so no Keycloak is
 * asked.
 */
@ExtendWith(EurekaCheck.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class EurekaEntitlementEventsTest {

  private static final String TOPIC = "folio.entitlement";

  @TempDir static Path dir;

  private static Vertx vertx;
  private static KafkaBroker kafka;
  private static GatewayCluster cluster;
  private static String modulesUrl;
  private static final Map<String, Map<String, JsonObject>> entitled = new ConcurrentHashMap<>();
  private static final Random random = new Random();

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    int modulesPort =
        vertx
            .createHttpServer()
            .requestHandler(req -> req.response().end(req.path()))
            .listen(0, "127.0.0.1")
            .await()
            .actualPort();
    modulesUrl = "http://127.0.0.1:" + modulesPort;
    Router router = Router.router(vertx);
    router
        .get("/entitlements/:tenant/applications")
        .handler(
            ctx -> {
              JsonArray apps =
                  new JsonArray(
                      new ArrayList<>(
                          entitled.getOrDefault(ctx.pathParam("tenant"), Map.of()).values()));
              vertx.setTimer(
                  1 + random.nextInt(20),
                  id -> ctx.json(new JsonObject().put("applicationDescriptors", apps)));
            });
    router
        .get("/applications/:app/discovery")
        .handler(
            ctx -> {
              String module = ctx.pathParam("app").replace("app-", "mod-");
              JsonObject found =
                  new JsonObject()
                      .put("id", module)
                      .put("name", module.replaceAll("-[0-9.]+$", ""))
                      .put("location", modulesUrl);
              vertx.setTimer(
                  1 + random.nextInt(20),
                  id -> ctx.json(new JsonObject().put("discovery", new JsonArray().add(found))));
            });
    String eurekaUrl =
        "http://127.0.0.1:"
            + vertx
                .createHttpServer()
                .requestHandler(router)
                .listen(0, "127.0.0.1")
                .await()
                .actualPort();
    kafka = KafkaBroker.start(dir, Duration.ofMinutes(3));
    try (KafkaProducer<String, String> producer = producer()) {
      producer.partitionsFor(TOPIC); // created before the nodes subscribe
    }
    cluster =
        GatewayCluster.start(
            Jars.gateway(),
            3,
            node ->
                List.of(
                    "--eureka.keycloak-url",
                    "http://127.0.0.1:1",
                    "--eureka.kafka",
                    kafka.bootstrap(),
                    "--eureka.entitlements-url",
                    eurekaUrl,
                    "--eureka.applications-url",
                    eurekaUrl,
                    "--eureka.entitlements-refresh",
                    "1d"));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
    if (kafka != null) {
      kafka.close();
    }
    if (vertx != null) {
      vertx.close().await();
    }
  }

  private static KafkaProducer<String, String> producer() {
    Properties config = new Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return new KafkaProducer<>(config);
  }

  private static JsonObject app(String name, String version) {
    return new JsonObject()
        .put("id", "app-" + name + "-" + version)
        .put("name", "app-" + name)
        .put("version", version)
        .put(
            "moduleDescriptors",
            new JsonArray()
                .add(
                    Descriptors.module(
                        "mod-" + name + "-" + version,
                        name,
                        Descriptors.handler("GET", "/" + name))));
  }

  private static void entitle(String tenant, JsonObject app) {
    entitled.computeIfAbsent(tenant, t -> new LinkedHashMap<>()).put(app.getString("name"), app);
  }

  private static int status(int node, String tenant, String path) {
    return given()
        .baseUri(cluster.url(node))
        .header("X-Okapi-Tenant", tenant)
        .get(path)
        .statusCode();
  }

  @Test
  void entitleUpgradeRevoke_3ModulesX2Tenants_atOnce_everyNodeRoutesWhatIsEntitled()
      throws Exception {
    for (String tenant : List.of("eura", "eurb")) {
      given()
          .baseUri(cluster.url(0))
          .body(new JsonObject().put("id", tenant).put("auth", "eureka").encode())
          .post("/_/proxy/tenants")
          .then()
          .statusCode(201);
    }

    try (KafkaProducer<String, String> producer = producer()) {
      for (String name : List.of("a", "b", "c")) {
        for (String tenant : List.of("eura", "eurb")) {
          entitle(tenant, app(name, "1.0.0"));
          send(producer, tenant, "ENTITLE", "mod-" + name + "-1.0.0");
        }
      }
      for (String tenant : List.of("eura", "eurb")) {
        entitle(tenant, app("a", "2.0.0"));
        send(producer, tenant, "UPGRADE", "mod-a-2.0.0");
      }
      entitled.get("eura").remove("app-c");
      send(producer, "eura", "REVOKE", "mod-c-1.0.0");
      producer.flush();
    }

    for (int node = 0; node < 3; node++) {
      int n = node;
      Await.until(
          () ->
              status(n, "eura", "/a") == 200
                  && status(n, "eura", "/b") == 200
                  && status(n, "eura", "/c") == 404
                  && status(n, "eurb", "/a") == 200
                  && status(n, "eurb", "/b") == 200
                  && status(n, "eurb", "/c") == 200,
          "node " + n + " routes eura's a and b (c revoked) and eurb's a, b and c");
    }
    for (String tenant : List.of("eura", "eurb")) {
      Await.until(
          () -> {
            String modules =
                given()
                    .baseUri(cluster.url(2))
                    .get("/_/proxy/tenants/" + tenant + "/modules")
                    .asString();
            return modules.contains("mod-a-2.0.0") && !modules.contains("mod-a-1.0.0");
          },
          tenant + " upgraded to mod-a-2.0.0");
    }
  }

  private static void send(
      KafkaProducer<String, String> producer, String tenant, String type, String moduleId) {
    JsonObject event =
        new JsonObject().put("tenantName", tenant).put("type", type).put("moduleId", moduleId);
    producer.send(new ProducerRecord<>(TOPIC, tenant, event.encode()));
  }
}
