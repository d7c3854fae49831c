package io.okapigw.it;

import static io.restassured.RestAssured.given;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Gateway nodes in separate JVMs on 127.0.0.1, clustered over Hazelcast TCP/IP. */
final class GatewayCluster implements AutoCloseable {

  private final List<Integer> httpPorts = new ArrayList<>();
  private final List<Integer> clusterPorts = new ArrayList<>();
  private final List<JavaProcess> nodes = new ArrayList<>();
  private final List<String> extraArgs;

  private GatewayCluster(int size, List<String> extraArgs) throws IOException {
    this.extraArgs = extraArgs;
    for (int i = 0; i < size; i++) {
      httpPorts.add(JavaProcess.freePort());
      clusterPorts.add(JavaProcess.freePort());
      nodes.add(null);
    }
  }

  /** Starts {@code size} nodes at once and waits until each sees all of them. */
  static GatewayCluster start(int size, List<String> extraArgs) throws IOException {
    GatewayCluster cluster = new GatewayCluster(size, extraArgs);
    for (int i = 0; i < size; i++) {
      cluster.launch(i);
    }
    cluster.awaitMembers(size);
    return cluster;
  }

  private void launch(int i) throws IOException {
    String members = clusterPorts.stream().map(p -> "127.0.0.1:" + p)
        .collect(Collectors.joining(","));
    List<String> args = new ArrayList<>(List.of("cluster", "--port", httpPorts.get(i).toString(),
        "--cluster-host", "127.0.0.1", "--cluster-port", clusterPorts.get(i).toString(),
        "--members", members, "--instances", "1"));
    args.addAll(extraArgs);
    nodes.set(i, JavaProcess.launch("okapi-core/target/okapi-core-fat.jar",
        List.of("-Xmx256m"), args));
  }

  /** Restarts a node that was killed, and waits until it is back in the cluster. */
  void restart(int i, int expectedMembers) throws IOException {
    launch(i);
    awaitMembers(expectedMembers);
  }

  /** Waits until every live node answers health with {@code n} members. */
  void awaitMembers(int n) throws IOException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
    for (int i = 0; i < nodes.size(); i++) {
      if (nodes.get(i) == null || !nodes.get(i).isAlive()) {
        continue;
      }
      nodes.get(i).awaitReady(url(i) + "/_/proxy/health", Duration.ofSeconds(120));
      while (members(i) != n) {
        if (Instant.now().isAfter(deadline)) {
          throw new IllegalStateException("node " + i + " sees " + members(i) + " members, not "
              + n + ":\n" + nodes.get(i).output());
        }
        pause();
      }
    }
  }

  private int members(int i) {
    return given().baseUri(url(i)).get("/_/proxy/health").jsonPath().getInt("members");
  }

  private static void pause() {
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  String url(int i) {
    return "http://127.0.0.1:" + httpPorts.get(i);
  }

  void kill(int i) {
    nodes.get(i).kill();
  }

  @Override
  public void close() {
    nodes.stream().filter(n -> n != null).forEach(JavaProcess::close);
  }
}
