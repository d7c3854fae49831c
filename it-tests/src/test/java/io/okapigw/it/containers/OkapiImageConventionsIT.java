package io.okapigw.it.containers;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import com.github.dockerjava.api.DockerClient;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerStatus;

/**
 * The gateway's image run as FOLIO runs Okapi's (folio-helm-v2's okapi chart): Okapi's keys in
 * {@code JAVA_OPTIONS}, the command as the container's arguments, PostgreSQL storage. A compose
 * file or Helm values that run Okapi run this image by changing the image name.
 */
@ExtendWith(DockerCheck.class)
class OkapiImageConventionsIT {

  private static final Duration STARTUP = Duration.ofMinutes(4);
  private static final int PORT = 9130;
  private static final int HEALTH_PORT = 9131;

  /** folio-helm-v2 charts/okapi values.yaml's javaOptions, on this network. */
  private static final String JAVA_OPTIONS =
      "-Djava.awt.headless=true -Dstorage=postgres -Dpostgres_host=postgres -Dpostgres_port=5432"
          + " -Dpostgres_username=okapi -Dpostgres_password=okapi-it -Dpostgres_database=okapi"
          + " -Dhost=okapi -Dokapiurl=http://okapi:9130 -DhealthPort=9131 -Dnodename=okapi-0"
          + " -Xmx256m";

  private static Network network;
  private static GenericContainer<?> postgres;

  @BeforeAll
  static void startPostgres() {
    network = Network.newNetwork();
    postgres =
        new GenericContainer<>(Images.postgresImage())
            .withNetwork(network)
            .withNetworkAliases("postgres")
            .withEnv("POSTGRES_USER", "okapi")
            .withEnv("POSTGRES_PASSWORD", "okapi-it")
            .withEnv("POSTGRES_DB", "okapi")
            .waitingFor(
                Wait.forSuccessfulCommand("pg_isready -h 127.0.0.1 -U okapi -d okapi")
                    .withStartupTimeout(STARTUP));
    postgres.start();
  }

  @AfterAll
  static void stopPostgres() {
    if (postgres != null) {
      postgres.stop();
    }
    if (network != null) {
      network.close();
    }
  }

  private static GenericContainer<?> okapi(String javaOptions, String... command) {
    return new GenericContainer<>(Images.gateway())
        .withNetwork(network)
        .withNetworkAliases("okapi")
        .withEnv("JAVA_OPTIONS", javaOptions)
        .withCommand(command);
  }

  private static void serving(String javaOptions, Consumer<GenericContainer<?>> checks) {
    try (GenericContainer<?> node =
        okapi(javaOptions, "dev")
            .withExposedPorts(PORT, HEALTH_PORT)
            .waitingFor(Wait.forHealthcheck().withStartupTimeout(STARTUP))) {
      node.start();
      checks.accept(node);
    }
  }

  private static String url(GenericContainer<?> node, int port) {
    return "http://" + node.getHost() + ":" + node.getMappedPort(port);
  }

  /** Started once the container has exited, whatever its status (which the test checks). */
  private static final class Exited extends StartupCheckStrategy {
    @Override
    public StartupStatus checkStartupState(DockerClient docker, String containerId) {
      return DockerStatus.isContainerStopped(getCurrentState(docker, containerId))
          ? StartupStatus.SUCCESSFUL
          : StartupStatus.NOT_YET_KNOWN;
    }
  }

  /** Runs a command that exits, as a one-shot container. */
  private static OneShot run(String javaOptions, String... command) {
    try (GenericContainer<?> job =
        okapi(javaOptions, command).withStartupCheckStrategy(new Exited().withTimeout(STARTUP))) {
      job.start();
      Long status =
          DockerClientFactory.instance()
              .client()
              .inspectContainerCmd(job.getContainerId())
              .exec()
              .getState()
              .getExitCodeLong();
      return new OneShot(status == null ? -1 : status.intValue(), job.getLogs());
    }
  }

  private record OneShot(int status, String output) {}

  @Test
  void helmsJavaOptionsAndArgumentDev_serve_registryKeptInPostgres_initdatabaseEmptiesIt() {
    serving(
        JAVA_OPTIONS,
        node -> {
          String health = url(node, HEALTH_PORT);
          given().baseUri(health).get("/readiness").then().statusCode(204);
          given().baseUri(health).get("/liveness").then().statusCode(204);
          String gateway = url(node, PORT);
          given()
              .baseUri(gateway)
              .get("/_/discovery/nodes")
              .then()
              .statusCode(200)
              .body("url", hasItem("http://okapi:9130"))
              .body("nodeName", hasItem("okapi-0"));
          given()
              .baseUri(gateway)
              .body("{\"id\":\"diku\"}")
              .post("/_/proxy/tenants")
              .then()
              .statusCode(201);
          assertThat(node.getLogs()).contains("postgres okapi@postgres:5432/okapi");
          assertThat(node.getLogs()).doesNotContain("okapi-it");
        });

    serving(
        JAVA_OPTIONS,
        node ->
            given()
                .baseUri(url(node, PORT))
                .get("/_/proxy/tenants/diku")
                .then()
                .statusCode(200)
                .body("id", equalTo("diku")));

    OneShot init = run(JAVA_OPTIONS, "initdatabase");
    assertThat(init.status()).as(init.output()).isZero();

    serving(
        JAVA_OPTIONS,
        node ->
            given().baseUri(url(node, PORT)).get("/_/proxy/tenants/diku").then().statusCode(404));
  }

  @Test
  void okapisKeyWeDoNotImplement_containerExitsTwoNamingIt() {
    OneShot refused = run(JAVA_OPTIONS + " -Dkube_server_url=https://k8s:6443", "dev");
    assertThat(refused.status()).isEqualTo(2);
    assertThat(refused.output())
        .contains("bad setting: kube_server_url: this gateway does not look modules up");
  }

  @Test
  void helpAsTheArgument_printsTheCommands_exitZero() {
    OneShot help = run("", "help");
    assertThat(help.status()).isZero();
    assertThat(help.output()).contains("initdatabase", "purgedatabase", "\n  deployment\n");
  }
}
