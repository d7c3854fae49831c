package io.okapigw.testsupport.process;

import io.okapigw.testsupport.FreePorts;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/** Gateway nodes in separate JVMs on 127.0.0.1, clustered over Hazelcast TCP/IP. */
public final class GatewayCluster implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final Path jar;
  private final List<Integer> httpPorts = new ArrayList<>();
  private final List<Integer> clusterPorts = new ArrayList<>();
  private final List<JavaProcess> nodes = new ArrayList<>();
  private final IntFunction<List<String>> extraArgs;
  private final List<String> jvmArgs;

  private GatewayCluster(
      Path jar, int size, List<String> jvmArgs, IntFunction<List<String>> extraArgs)
      throws IOException {
    this.jar = jar;
    this.jvmArgs = jvmArgs;
    this.extraArgs = extraArgs;
    for (int i = 0; i < size; i++) {
      httpPorts.add(FreePorts.belowEphemeralRange());
      clusterPorts.add(FreePorts.belowEphemeralRange());
      nodes.add(null);
    }
  }

  /**
   * Starts {@code size} nodes at once and waits until each sees all of them.
   *
   * @param jar the gateway's fat jar ({@code okapi-core/target/okapi-core-fat.jar})
   * @param extraArgs more gateway settings, e.g. {@code --storage postgresql://...}; one HTTP
   *     verticle per node unless they give {@code --instances}
   */
  public static GatewayCluster start(Path jar, int size, List<String> extraArgs)
      throws IOException {
    return start(jar, size, i -> extraArgs);
  }

  /**
   * As {@link #start(Path, int, List)}, with settings of each node's own.
   *
   * @param extraArgs node index to its settings
   */
  public static GatewayCluster start(Path jar, int size, IntFunction<List<String>> extraArgs)
      throws IOException {
    return start(jar, size, List.of(), extraArgs);
  }

  /**
   * As {@link #start(Path, int, IntFunction)}, each JVM given more options.
   *
   * @param jvmArgs e.g. {@code -Dhazelcast.max.no.heartbeat.seconds=5} (Hazelcast reads its
   *     properties from system properties too)
   */
  public static GatewayCluster start(
      Path jar, int size, List<String> jvmArgs, IntFunction<List<String>> extraArgs)
      throws IOException {
    GatewayCluster cluster = new GatewayCluster(jar, size, jvmArgs, extraArgs);
    try {
      for (int i = 0; i < size; i++) {
        cluster.launch(i);
      }
      cluster.awaitMembers(size);
      return cluster;
    } catch (IOException | RuntimeException e) {
      cluster.close(); // no node outlives a failed start
      throw e;
    }
  }

  private void launch(int i) throws IOException {
    String members =
        clusterPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    List<String> args =
        new ArrayList<>(
            List.of(
                "cluster",
                "--port",
                httpPorts.get(i).toString(),
                "--cluster-host",
                "127.0.0.1",
                "--cluster-port",
                clusterPorts.get(i).toString(),
                "--members",
                members));
    List<String> extra = extraArgs.apply(i);
    if (!extra.contains("--instances")) {
      args.addAll(List.of("--instances", "1"));
    }
    args.addAll(extra);
    List<String> jvm = new ArrayList<>(List.of("-Xmx256m"));
    jvm.addAll(jvmArgs);
    nodes.set(i, JavaProcess.launch(jar, jvm, args));
  }

  /** Restarts a node that was killed, and waits until it is back in the cluster. */
  public void restart(int i, int expectedMembers) throws IOException {
    launch(i);
    awaitMembers(expectedMembers);
  }

  /** Waits until every live node answers health with {@code n} members (a hang guard). */
  public void awaitMembers(int n) throws IOException {
    Instant deadline = Instant.now().plus(JavaProcess.PATIENCE);
    for (int i = 0; i < nodes.size(); i++) {
      JavaProcess node = nodes.get(i);
      if (node == null || !node.isAlive()) {
        continue;
      }
      node.awaitReady(url(i) + "/_/proxy/health", JavaProcess.PATIENCE);
      while (members(i) != n) {
        if (Instant.now().isAfter(deadline)) {
          throw new IllegalStateException(
              "node "
                  + i
                  + " sees "
                  + members(i)
                  + " members, not "
                  + n
                  + ":\n"
                  + node.outputTail());
        }
        JavaProcess.pause(200);
      }
    }
  }

  private int members(int i) throws IOException {
    try {
      HttpResponse<String> health =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(url(i) + "/_/proxy/health")).build(),
              HttpResponse.BodyHandlers.ofString());
      return new JsonObject(health.body()).getInteger("members", 0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  /**
   * @return the base URLs of every node, in order
   */
  public List<String> urls() {
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      urls.add(url(i));
    }
    return urls;
  }

  /**
   * @return the base URL of node {@code i}
   */
  public String url(int i) {
    return "http://127.0.0.1:" + httpPorts.get(i);
  }

  /**
   * @return how many nodes the cluster was started with
   */
  public int size() {
    return nodes.size();
  }

  /**
   * Stops node {@code i} as a deployment does (SIGTERM, what {@code docker stop} sends), killing it
   * if it still runs after {@code grace}; {@link #restart} starts it again.
   *
   * @return whether it ended by itself within {@code grace}
   */
  public boolean terminate(int i, Duration grace) {
    return nodes.get(i).stop(grace);
  }

  /** Freezes node {@code i} (SIGSTOP): a node cut off, its peers see no heartbeat of it. */
  public void pause(int i) {
    nodes.get(i).pause();
  }

  /** Lets node {@code i} go on after {@link #pause} (SIGCONT). */
  public void resume(int i) {
    nodes.get(i).resume();
  }

  /**
   * @return the end of node {@code i}'s output, for a failure message
   */
  public String outputTail(int i) {
    return nodes.get(i).outputTail();
  }

  /**
   * @return what node {@code i} printed so far
   */
  public String output(int i) throws IOException {
    return nodes.get(i).output();
  }

  /** Kills node {@code i} at once (kill -9). */
  public void kill(int i) {
    nodes.get(i).kill();
  }

  @Override
  public void close() {
    nodes.stream().filter(n -> n != null).forEach(JavaProcess::close);
  }
}
