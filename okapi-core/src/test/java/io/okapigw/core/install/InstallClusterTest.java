package io.okapigw.core.install;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.Gateway;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.tenantinit.TenantInitOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.InJvmCluster;
import io.okapigw.core.testing.TenantApiModule;
import io.okapigw.core.testing.TenantApiModule.Mode;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Two gateway nodes clustered on Hazelcast in this JVM: an install job started on one node is
 * reported by the other while it runs; the tenant's changes wait for it whichever node they come
 * to; and when the node running a job leaves the cluster mid-install, the other reports the job
 * failed (the module it was installing not enabled) and the tenant can be changed again.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InstallClusterTest {

  private static final String INSTALL = "/_/proxy/tenants/diku/install";

  private static InJvmCluster cluster;
  private static Vertx moduleVertx;

  @BeforeAll
  static void start() {
    // a held module or a lock never freed fails the test within a minute, never hangs it
    cluster =
        InJvmCluster.start(
            2,
            vertx ->
                Gateway.start(
                    vertx,
                    GatewayOptions.defaults(0)
                        .withInstances(1)
                        .withTenantInit(
                            new TenantInitOptions(
                                Duration.ofSeconds(60), TenantInitOptions.DEFAULT_POLL_INTERVAL))));
    moduleVertx = Vertx.vertx();
    node(0).body("{\"id\":\"diku\"}").post("/_/proxy/tenants").then().statusCode(201);
  }

  @AfterAll
  static void stop() {
    cluster.close();
    moduleVertx.close().await();
  }

  private static RequestSpecification node(int i) {
    return cluster.node(i);
  }

  private static TenantApiModule module(String id) {
    TenantApiModule server = TenantApiModule.start(moduleVertx);
    node(0)
        .body(TenantApiModule.descriptor(id, "2.0", null, null).encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(201);
    node(0)
        .body(GatewayFixture.instance(id, id + "-1", server.url()).encode())
        .post("/_/discovery/modules")
        .then()
        .statusCode(201);
    return server;
  }

  private static String startAsync(int node, String id) {
    return node(node)
        .body("[{\"id\":\"" + id + "\",\"action\":\"enable\"}]")
        .post(INSTALL + "?async=true")
        .then()
        .statusCode(201)
        .extract()
        .header("Location");
  }

  private static JsonObject job(int node, String location) {
    return new JsonObject(node(node).get(location).then().statusCode(200).extract().asString());
  }

  /**
   * @return the job once its first module is being invoked (the job holds the tenant lock)
   */
  private static JsonObject invoking(int node, String location) {
    JsonObject job = job(node, location);
    for (int i = 0; i < 200 && !"invoke".equals(stage(job)); i++) {
      job = job(node, location);
    }
    assertThat(stage(job)).isEqualTo("invoke");
    return job;
  }

  private static String stage(JsonObject job) {
    return job.getJsonArray("modules").getJsonObject(0).getString("stage");
  }

  private static List<String> enabled(int node) {
    return node(node)
        .get("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getList("id");
  }

  @Test
  @Order(1)
  void jobOnOneNode_reportedByTheOther_changesOnTheOtherWaitForIt() throws Exception {
    TenantApiModule held = module("mod-a-1.0.0").mode(Mode.HOLD);
    String location = startAsync(0, "mod-a-1.0.0");
    JsonObject running = invoking(1, location);
    assertThat(running.getBoolean("complete")).isFalse();
    CompletableFuture<Integer> otherNode =
        CompletableFuture.supplyAsync(
            () -> node(1).body("[]").post(INSTALL).then().extract().statusCode());
    job(1, location);
    job(0, location);
    assertThat(otherNode).as("an install on node 1 waits for node 0's job").isNotDone();
    held.release();
    assertThat(otherNode.get(90, TimeUnit.SECONDS)).isEqualTo(200);
    assertThat(job(1, location).getBoolean("complete")).isTrue();
    assertThat(enabled(1)).containsExactly("mod-a-1.0.0");
  }

  @Test
  @Order(2)
  void nodeLeavesMidInstall_otherReportsTheJobFailed_moduleNotEnabled_tenantUsableAgain() {
    module("mod-b-1.0.0").mode(Mode.HOLD);
    module("mod-c-1.0.0");
    String location = startAsync(0, "mod-b-1.0.0");
    assertThat(invoking(1, location).getBoolean("complete")).isFalse();
    cluster.leave(0);
    JsonObject failed = job(0, location);
    for (int i = 0; i < 100 && !failed.getBoolean("complete"); i++) {
      failed = job(0, location); // until the cluster tells the remaining node of the departure
    }
    assertThat(failed.getBoolean("complete")).isTrue();
    // a node shutting down may still record its call's failure (whatever its message); one
    // that vanished cannot, and the other node marks its job (InstallJobsTest): either way the
    // job is complete, and failed on the module in progress
    assertThat(failed.getJsonArray("modules").getJsonObject(0).getString("message")).isNotBlank();
    assertThat(enabled(0)).containsExactly("mod-a-1.0.0");
    node(0)
        .body("[{\"id\":\"mod-c-1.0.0\",\"action\":\"enable\"}]")
        .post(INSTALL)
        .then()
        .statusCode(200);
    assertThat(enabled(0)).containsExactly("mod-a-1.0.0", "mod-c-1.0.0");
  }
}
