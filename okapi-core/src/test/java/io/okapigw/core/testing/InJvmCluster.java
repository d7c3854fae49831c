package io.okapigw.core.testing;

import static io.restassured.RestAssured.given;

import io.okapigw.core.Gateway;
import io.okapigw.core.cluster.ClusterOptions;
import io.okapigw.core.cluster.ClusteredVertx;
import io.okapigw.testsupport.FreePorts;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Gateway nodes clustered on Hazelcast in this JVM, each on a Vert.x of its own, for tests of what
 * a cluster shares: {@link #node} talks to one over HTTP, {@link #leave} takes one out.
 */
public final class InJvmCluster implements AutoCloseable {

  private final List<Vertx> vertxes = new ArrayList<>();
  private final List<Gateway> nodes = new ArrayList<>();

  private InJvmCluster() {}

  /**
   * @param size how many nodes
   * @param gateway starts a node's gateway on its clustered Vert.x
   * @return the cluster, every node started
   */
  public static InJvmCluster start(int size, Function<Vertx, Future<Gateway>> gateway) {
    // Hazelcast binds its member port itself, and every member's list names all of them first
    List<Integer> ports =
        IntStream.range(0, size).mapToObj(i -> FreePorts.belowEphemeralRange()).toList();
    List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
    InJvmCluster cluster = new InJvmCluster();
    for (int port : ports) {
      Vertx vertx =
          ClusteredVertx.start(new ClusterOptions("127.0.0.1", port, members, null)).await();
      cluster.vertxes.add(vertx);
      cluster.nodes.add(gateway.apply(vertx).await());
    }
    return cluster;
  }

  /**
   * @return a request to node {@code i} (its index among the nodes still in the cluster)
   */
  public RequestSpecification node(int i) {
    return given().baseUri("http://localhost:" + nodes.get(i).port());
  }

  /**
   * @return the nodes' gateways, in node order
   */
  public List<Gateway> gateways() {
    return List.copyOf(nodes);
  }

  /**
   * @return the nodes' Vert.x instances, in node order
   */
  public List<Vertx> vertxes() {
    return List.copyOf(vertxes);
  }

  /** Node {@code i} leaves the cluster (its Vert.x closed); the later nodes move up one. */
  public void leave(int i) {
    vertxes.remove(i).close().await();
    nodes.remove(i);
  }

  @Override
  public void close() {
    vertxes.forEach(v -> v.close().await());
  }
}
