package io.okapigw.core.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.okapigw.core.Gateway;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.InJvmCluster;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Deployment in a cluster, as Okapi's: a deployment posted on one node for another ({@code nodeId}
 * in {@code POST /_/discovery/modules}) is started by that node, listed by its {@code
 * /_/deployment/modules} and shared by discovery; removed from discovery on any node, it is stopped
 * by the node that started it; {@code install?deploy=true} starts one instance on every node.
 */
class ClusterDeploymentTest {

  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();

  private final int firstPort = FreePorts.belowEphemeralRange();
  private final AtomicInteger nodes = new AtomicInteger();
  private final InJvmCluster cluster =
      InJvmCluster.start(
          2,
          vertx -> {
            GatewayOptions defaults = GatewayOptions.defaults(0).withInstances(1);
            int node = nodes.getAndIncrement() * 5;
            return Gateway.start(
                vertx,
                defaults
                    .withPort(0)
                    .withDeployment(
                        defaults
                            .deployment()
                            .withPorts(firstPort + node, firstPort + node + 5)
                            .withWaitIterations(40)));
          });

  @AfterEach
  void close() {
    cluster.gateways().forEach(g -> g.stop().await());
    cluster.close();
  }

  private static JsonObject launch() {
    try {
      String source =
          Path.of(ClusterDeploymentTest.class.getResource("/deployment/TinyModule.java").toURI())
              .toString();
      return new JsonObject().put("exec", JAVA + " " + source + " %p");
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void deploymentForAnotherNode_startedThere_stoppedThereWhenRemovedAnywhere() {
    String second = cluster.gateways().get(1).nodeId();
    String url =
        cluster
            .node(0)
            .body(
                new JsonObject()
                    .put("srvcId", "mod-tiny-1.0.0")
                    .put("instId", "t1")
                    .put("nodeId", second)
                    .put("descriptor", launch())
                    .encode())
            .post("/_/discovery/modules")
            .then()
            .statusCode(201)
            .body("nodeId", equalTo(second))
            .extract()
            .jsonPath()
            .getString("url");

    cluster.node(1).get("/_/deployment/modules").then().body("instId", hasSize(1));
    cluster.node(0).get("/_/deployment/modules").then().body("$", hasSize(0));
    cluster.node(0).get("/_/discovery/modules/mod-tiny-1.0.0/t1").then().body("url", equalTo(url));
    int port = Integer.parseInt(url.substring(url.lastIndexOf(':') + 1));
    assertThat(FreePorts.listening(port)).isTrue();

    cluster.node(0).delete("/_/discovery/modules/mod-tiny-1.0.0/t1").then().statusCode(204);

    assertThat(FreePorts.listening(port)).as("stopped by the node that started it").isFalse();
    cluster.node(1).get("/_/deployment/modules").then().body("$", hasSize(0));
  }

  @Test
  void installWithDeploy_oneInstanceOnEveryNode() {
    JsonObject module =
        new JsonObject()
            .put("id", "mod-tiny-1.0.0")
            .put(
                "provides",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("id", "tiny")
                            .put("version", "1.0")
                            .put(
                                "handlers",
                                new JsonArray()
                                    .add(
                                        new JsonObject()
                                            .put("methods", new JsonArray().add("GET"))
                                            .put("pathPattern", "/tiny")
                                            .put("permissionsRequired", new JsonArray())))))
            .put("launchDescriptor", launch());
    cluster.node(0).body(module.encode()).post("/_/proxy/modules").then().statusCode(201);
    cluster.node(0).body("{\"id\":\"t1\"}").post("/_/proxy/tenants").then().statusCode(201);

    cluster
        .node(1)
        .body("[{\"id\":\"mod-tiny-1.0.0\",\"action\":\"enable\"}]")
        .post("/_/proxy/tenants/t1/install?deploy=true")
        .then()
        .statusCode(200);

    cluster.node(0).get("/_/discovery/modules/mod-tiny-1.0.0").then().body("$", hasSize(2));
    cluster.node(0).get("/_/deployment/modules").then().body("$", hasSize(1));
    cluster.node(1).get("/_/deployment/modules").then().body("$", hasSize(1));
    cluster.node(0).header("X-Okapi-Tenant", "t1").get("/tiny").then().statusCode(200);
  }
}
