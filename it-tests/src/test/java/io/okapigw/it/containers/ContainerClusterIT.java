package io.okapigw.it.containers;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The images operators deploy, built from docker/*.Dockerfile, as a cluster of containers: two
 * gateway nodes, the authtoken module, the simulated circulation modules, and the register job that
 * set them up, protecting the admin API last. The node-stopping test runs last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(DockerCheck.class)
class ContainerClusterIT {

  private static ContainerCluster cluster;
  private static Desk node1;
  private static Desk node2;

  @BeforeAll
  static void startCluster() {
    cluster = ContainerCluster.start();
    node1 = new Desk(cluster.gatewayUrl(1));
    node2 = new Desk(cluster.gatewayUrl(2));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void checkOutThroughNode1_checkInThroughNode2_bothSucceed() {
    String token = node1.token(ContainerCluster.ADMIN, ContainerCluster.ADMIN_PASSWORD);

    Desk.Answer out = node1.checkOut(token, "I000010", "P000011");
    assertThat(out.status()).as(out.body()).isEqualTo(201);
    assertThat(new JsonObject(out.body()).getJsonObject("status").getString("name"))
        .isEqualTo("Open");

    Desk.Answer in = node2.checkIn(token, "I000010");
    assertThat(in.status()).as(in.body()).isEqualTo(200);
    assertThat(
            new JsonObject(in.body())
                .getJsonObject("loan")
                .getJsonObject("status")
                .getString("name"))
        .isEqualTo("Closed");
  }

  @Test
  @Order(2)
  void revokedPermission_refusedOnBothNodes() {
    String admin = node1.token(ContainerCluster.ADMIN, ContainerCluster.ADMIN_PASSWORD);
    Desk.Answer created =
        node1.createUser(
            admin, "librarian-it", "secret-it", ContainerCluster.LIBRARIAN_PERMISSIONS);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    String userId = new JsonObject(created.body()).getString("id");
    String librarian = node2.token("librarian-it", "secret-it");
    // both nodes now hold cached decisions allowing the librarian to check out and in
    assertThat(node1.checkOut(librarian, "I000020", "P000021").status()).isEqualTo(201);
    assertThat(node2.checkIn(librarian, "I000020").status()).isEqualTo(200);
    assertThat(node2.checkOut(librarian, "I000020", "P000021").status()).isEqualTo(201);
    assertThat(node1.checkIn(librarian, "I000020").status()).isEqualTo(200);

    Desk.Answer revoked = node2.setPermissions(admin, userId, List.of());
    assertThat(revoked.status()).as(revoked.body()).isEqualTo(204);

    Desk.Answer onNode1 = node1.checkOut(librarian, "I000020", "P000021");
    Desk.Answer onNode2 = node2.checkOut(librarian, "I000020", "P000021");
    assertThat(onNode1.status()).as(onNode1.body()).isEqualTo(403);
    assertThat(onNode2.status()).as(onNode2.body()).isEqualTo(403);
    assertThat(node1.checkOut(admin, "I000020", "P000021").status()).isEqualTo(201);
    assertThat(node2.checkIn(admin, "I000020").status()).isEqualTo(200);
  }

  @Test
  @Order(3)
  void adminApi_protectedByTheRegisterJob_onBothNodes() {
    String superAdmin =
        node1.token(
            "supertenant", ContainerCluster.SUPER_ADMIN, ContainerCluster.SUPER_ADMIN_PASSWORD);
    for (Desk node : List.of(node1, node2)) {
      assertThat(node.adminGet(null, "/_/proxy/tenants").status()).isEqualTo(401);
      Desk.Answer tenants = node.adminGet(superAdmin, "/_/proxy/tenants");
      assertThat(tenants.status()).as(tenants.body()).isEqualTo(200);
      assertThat(tenants.body()).contains("\"diku\"");
      assertThat(
              new JsonObject(node.adminGet(null, "/_/proxy/health").body())
                  .getJsonObject("adminApi")
                  .getBoolean("protected"))
          .isTrue();
    }
  }

  @Test
  @Order(4)
  void gatewayContainerStoppedMidLoad_otherNodeKeepsServing() throws InterruptedException {
    String token = node2.token(ContainerCluster.ADMIN, ContainerCluster.ADMIN_PASSWORD);
    try (CirculationLoad load = new CirculationLoad(node2, token, 4, 400, Duration.ofMinutes(3))) {
      assertThat(load.awaitOperations(8, Duration.ofMinutes(1))).as("load started").isTrue();

      cluster.stopGateway(1);
      long atStop = load.operations();

      assertThat(load.awaitOperations(atStop + 24, Duration.ofMinutes(1)))
          .as("operations after node 1 stopped (%s done before)", atStop)
          .isTrue();
      assertThat(load.failures()).isEmpty();
      System.out.printf(
          "gateway-1 stopped after %d check-out/check-in pairs through gateway-2;"
              + " %d pairs in all, no failure%n",
          atStop, load.operations());
    }
    assertThat(node2.token(ContainerCluster.ADMIN, ContainerCluster.ADMIN_PASSWORD)).isNotBlank();
  }
}
