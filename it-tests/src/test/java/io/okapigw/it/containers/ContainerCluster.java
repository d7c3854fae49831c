package io.okapigw.it.containers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;

/**
 * The project's images on one Docker network, as docker/docker-compose.yml wires them (without
 * PostgreSQL: registry in the cluster's maps, authtoken on its JSON store): two clustered gateway
 * nodes, the authtoken module, the simulated modules, and the {@code register} job, which has
 * registered everything for tenant {@code diku} when {@link #start()} returns. Every container is
 * waited for through its image's HEALTHCHECK.
 */
final class ContainerCluster implements AutoCloseable {

  static final String TENANT = "diku";
  static final String ADMIN = "diku_admin";

  /** The demo password, as in docker-compose.yml. */
  static final String ADMIN_PASSWORD = "admin";

  /** The super admin, whose token the admin API needs once the register job protected it. */
  static final String SUPER_ADMIN = "super_admin";

  static final String SUPER_ADMIN_PASSWORD = "super-it";
  static final List<String> LIBRARIAN_PERMISSIONS =
      List.of("circulation.check-out-by-barcode.post", "circulation.check-in-by-barcode.post");

  private static final int GATEWAY_PORT = 9130;
  private static final Duration STARTUP = Duration.ofMinutes(4);
  private static final String MEMBERS = "gateway-1:5701,gateway-2:5701";

  private final Network network = Network.newNetwork();
  private final GenericContainer<?> authtoken;
  private final GenericContainer<?> modules;
  private final List<GenericContainer<?>> gateways = new ArrayList<>();

  private ContainerCluster() {
    authtoken =
        java(new GenericContainer<>(Images.authtoken()), "authtoken")
            .withCommand(
                "--port",
                "8081",
                "--store",
                "json:/data/store",
                "--signing-key-file",
                "/data/signing.key",
                "--gateway-url",
                "http://gateway-1:9130",
                "--password-hash-iterations",
                "1000",
                "--bootstrap-env",
                TENANT
                    + ":"
                    + ADMIN
                    + ":DEMO_PASSWORD:"
                    + String.join(",", LIBRARIAN_PERMISSIONS)
                    + ",authtoken.all",
                "--bootstrap-env",
                "supertenant:"
                    + SUPER_ADMIN
                    + ":SUPER_ADMIN_PASSWORD:okapi.all,authtoken.all,perms.users.assign.okapi")
            .withEnv("DEMO_PASSWORD", ADMIN_PASSWORD)
            .withEnv("SUPER_ADMIN_PASSWORD", SUPER_ADMIN_PASSWORD);
    modules =
        java(new GenericContainer<>(Images.modules()), "modules")
            .withCommand(
                "modules", "--host", "0.0.0.0", "--port", "9300", "--advertise-host", "modules");
    for (int i = 1; i <= 2; i++) {
      String name = "gateway-" + i;
      gateways.add(
          java(new GenericContainer<>(Images.gateway()), name)
              .withExposedPorts(GATEWAY_PORT)
              .withCommand(
                  "cluster",
                  "--port",
                  String.valueOf(GATEWAY_PORT),
                  "--okapi-url",
                  "http://" + name + ":" + GATEWAY_PORT,
                  "--cluster-host",
                  name,
                  "--cluster-port",
                  "5701",
                  "--members",
                  MEMBERS));
    }
  }

  private GenericContainer<?> java(GenericContainer<?> container, String alias) {
    return container
        .withNetwork(network)
        .withNetworkAliases(alias)
        .withEnv("JDK_JAVA_OPTIONS", "-Xmx256m -XX:+ExitOnOutOfMemoryError")
        .waitingFor(Wait.forHealthcheck().withStartupTimeout(STARTUP));
  }

  /** Builds the images, starts everything at once, then runs the register job to its end. */
  static ContainerCluster start() {
    ContainerCluster cluster = new ContainerCluster();
    try {
      Startables.deepStart(cluster.all()).join();
      cluster.register();
      return cluster;
    } catch (RuntimeException e) {
      cluster.printLogs();
      cluster.close();
      throw e;
    }
  }

  private void register() {
    try (GenericContainer<?> job =
        new GenericContainer<>(Images.modules())
            .withNetwork(network)
            .withEnv("JDK_JAVA_OPTIONS", "-Xmx128m")
            .withEnv("DEMO_PASSWORD", ADMIN_PASSWORD)
            .withEnv("SUPER_ADMIN_PASSWORD", SUPER_ADMIN_PASSWORD)
            .withCommand(
                "register",
                "--gateway",
                "http://gateway-1:9130",
                "--members",
                "2",
                "--modules-url",
                "http://modules:9300",
                "--authtoken-url",
                "http://authtoken:8081",
                "--tenant",
                TENANT,
                "--username",
                ADMIN,
                "--password-env",
                "DEMO_PASSWORD",
                "--admin-username",
                SUPER_ADMIN,
                "--admin-password-env",
                "SUPER_ADMIN_PASSWORD")
            .withStartupCheckStrategy(new OneShotStartupCheckStrategy().withTimeout(STARTUP))) {
      try {
        job.start();
      } catch (RuntimeException e) {
        System.err.println("register job:\n" + job.getLogs());
        throw e;
      }
    }
  }

  /**
   * @return the host URL of gateway node {@code n} (1 or 2)
   */
  String gatewayUrl(int n) {
    GenericContainer<?> gateway = gateways.get(n - 1);
    return "http://" + gateway.getHost() + ":" + gateway.getMappedPort(GATEWAY_PORT);
  }

  /** Stops gateway node {@code n} as {@code docker stop} does (SIGTERM, then its shutdown). */
  void stopGateway(int n) {
    DockerClientFactory.instance()
        .client()
        .stopContainerCmd(gateways.get(n - 1).getContainerId())
        .withTimeout(30)
        .exec();
  }

  private Stream<GenericContainer<?>> all() {
    return Stream.concat(Stream.of(authtoken, modules), gateways.stream());
  }

  void printLogs() {
    all()
        .filter(GenericContainer::isCreated)
        .forEach(c -> System.err.println(c.getNetworkAliases() + ":\n" + c.getLogs()));
  }

  @Override
  public void close() {
    all().forEach(GenericContainer::stop);
    network.close();
  }
}
