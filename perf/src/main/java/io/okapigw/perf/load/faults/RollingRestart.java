package io.okapigw.perf.load.faults;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.perf.kit.haproxy.Haproxy;
import io.okapigw.perf.kit.haproxy.HaproxyConfig;
import io.okapigw.perf.kit.nginx.Nginx;
import io.okapigw.perf.kit.process.Binaries;
import io.okapigw.perf.load.BarcodeRows;
import io.okapigw.perf.load.LoadDriver;
import io.okapigw.perf.load.PhaseFigures;
import io.okapigw.perf.load.faults.FaultsOptions.Balancer;
import io.okapigw.testsupport.process.GatewayCluster;
import io.vertx.core.Future;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code rolling-restart}: a 3-node cluster of our gateway (each node a JVM, {@code --okapi-url}
 * the load balancer, as a deployment has it) behind Debian's HAProxy (active checks of each node's
 * readiness, safe retries: {@link HaproxyConfig}) or nginx (its default passive health checks and
 * {@code proxy_next_upstream}); the library registered through it, the users working through it. A
 * phase as it is; then each node in turn told to stop (SIGTERM), and once it ended, started again
 * and waited for until every node sees 3 members (the rolling phase lasts as long as that takes, at
 * most 15 minutes); a phase after.
 */
final class RollingRestart {

  static final int NODES = 3;
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration MAX_ROLLING = Duration.ofMinutes(15);
  private static final String HEALTH = "/_/proxy/health";

  private record Step(int node, double stopSeconds, boolean endedByItself, double startSeconds) {}

  private RollingRestart() {}

  static FaultReport run(Stage stage) throws Exception {
    FaultsOptions o = stage.options;
    int lbPort = o.basePort() + 40;
    String lb = "http://127.0.0.1:" + lbPort;
    List<String> args = new ArrayList<>(List.of("--okapi-url", lb));
    args.addAll(o.gatewayArgs());
    try (GatewayCluster cluster = GatewayCluster.start(o.gatewayJar(), NODES, args)) {
      List<Integer> ports = cluster.urls().stream().map(u -> URI.create(u).getPort()).toList();
      startBalancer(stage, o.balancer(), lbPort, ports);
      Library library = stage.library(lb);
      LoadDriver driver =
          stage.driver(
              lb, DemoOptions.TENANT, o.users(), o.warmup(), BarcodeRows.of(library.data()));
      PhaseFigures before = stage.join(() -> driver.phase(o.phase()));
      Future<List<Step>> steps =
          stage.inThread("rolling-restart", () -> restartEach(cluster, o.drainGrace()));
      PhaseFigures rolling = stage.join(() -> driver.phase(MAX_ROLLING, steps));
      PhaseFigures after = stage.join(() -> driver.phase(o.phase()));
      stage.join(driver::finish);
      String name = name(o.balancer());
      String load = DemoOptions.TENANT + ", " + o.users() + " users, through " + name;
      return report(name, load, before, rolling, after, steps);
    }
  }

  private static void startBalancer(Stage stage, Balancer balancer, int port, List<Integer> nodes)
      throws Exception {
    String path = System.getenv("PATH");
    switch (balancer) {
      case HAPROXY ->
          Haproxy.start(
              stage.children,
              Binaries.haproxy(path),
              stage.dir.resolve("haproxy"),
              new HaproxyConfig(port, nodes, HEALTH),
              "/_/version",
              START_TIMEOUT);
      case NGINX ->
          Nginx.start(
              stage.children,
              Binaries.nginx(path),
              stage.dir.resolve("nginx"),
              port,
              nodes,
              32,
              "/_/version",
              START_TIMEOUT);
    }
  }

  private static String name(Balancer balancer) {
    return balancer == Balancer.HAPROXY ? "HAProxy" : "nginx";
  }

  private static FaultReport report(
      String balancer,
      String load,
      PhaseFigures before,
      PhaseFigures rolling,
      PhaseFigures after,
      Future<List<Step>> steps) {
    FaultReport report =
        new FaultReport(
                "rolling restart of a "
                    + NODES
                    + "-node cluster behind "
                    + balancer
                    + " (SIGTERM each node in turn)")
            .row(load, "before", NODES + " nodes", before)
            .row(load, "rolling", "each node stopped (SIGTERM) and started again, in turn", rolling)
            .row(load, "after", "all nodes restarted", after);
    if (!steps.isComplete()) {
      report.note("the rolling restart did not end within " + MAX_ROLLING.toMinutes() + " min");
    } else if (steps.failed()) {
      report.note("the rolling restart failed: " + steps.cause().getMessage());
    } else {
      steps.result().forEach(s -> report.note(describe(s)));
    }
    long failed = rolling.errors() + after.errors();
    return report.target(
        "0 failed operations during and after the rolling restart: " + failed,
        steps.succeeded() && failed == 0);
  }

  private static List<Step> restartEach(GatewayCluster cluster, Duration grace) throws Exception {
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      long start = System.nanoTime();
      boolean byItself = cluster.terminate(i, grace);
      long stopped = System.nanoTime();
      cluster.restart(i, NODES);
      steps.add(
          new Step(i + 1, (stopped - start) / 1e9, byItself, (System.nanoTime() - stopped) / 1e9));
    }
    return steps;
  }

  private static String describe(Step s) {
    return String.format(
        Locale.ROOT,
        "node %d: ended %.1f s after SIGTERM%s; back in the cluster %.1f s after it was started",
        s.node(),
        s.stopSeconds(),
        s.endedByItself() ? "" : " (killed: it did not end within the drain grace)",
        s.startSeconds());
  }
}
