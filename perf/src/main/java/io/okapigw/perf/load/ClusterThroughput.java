package io.okapigw.perf.load;

import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.perf.load.Comparison.Contender;
import io.okapigw.testsupport.process.GatewayCluster;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code cluster-throughput}: the check-out/check-in workload on one gateway against a cluster of
 * several, on this machine. Starts, each gateway in a JVM of its own: a standalone gateway ({@code
 * dev}, no Hazelcast) and a cluster of {@code --nodes} ({@code cluster}, Hazelcast on 127.0.0.1);
 * and once, in this JVM, the {@link Library} (simulated modules, authtoken), registered on both.
 * Then for each user count three modes, measured side by side in interleaved slices: every user at
 * the standalone gateway, every user at cluster node 1, the users spread over every node. Prints
 * one table per user count, with ratios to the standalone gateway. Exit code 0 without errors, 1
 * with errors or a failed set-up, 2 for a bad flag.
 */
public final class ClusterThroughput {

  static final String BASELINE = "standalone";

  private static final Logger log = LoggerFactory.getLogger(ClusterThroughput.class);
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private record Mode(String name, List<String> urls) {}

  private ClusterThroughput() {}

  /** The settings of {@code cluster-throughput}. */
  public static final SettingsSpec SPEC = ClusterThroughputOptions.SPEC;

  /**
   * Runs and exits the process with the exit code: 0 without errors, 1 with errors or a failed
   * set-up.
   *
   * @param settings read by {@link #SPEC}
   * @throws IllegalArgumentException naming a bad setting, before anything starts
   */
  public static void run(Settings settings) {
    ClusterThroughputOptions options = ClusterThroughputOptions.from(settings);
    int status;
    try {
      status = measure(options);
    } catch (Exception e) {
      log.error("cluster-throughput failed: {}", e.getMessage());
      status = 1;
    }
    System.exit(status);
  }

  private static int measure(ClusterThroughputOptions options) throws Exception {
    List<String> gatewayArgs = List.of("--instances", Integer.toString(options.instances()));
    double loadBefore = loadAverage();
    Path dir = Files.createTempDirectory("okapigw-cluster-throughput");
    Vertx vertx = Vertx.vertx();
    log.info("starting a standalone gateway and a {}-node cluster", options.nodes());
    try (StandaloneGateway standalone = StandaloneGateway.start(options.gatewayJar(), gatewayArgs);
        GatewayCluster cluster =
            GatewayCluster.start(options.gatewayJar(), options.nodes(), gatewayArgs)) {
      String standaloneUrl = standalone.url();
      Library library =
          join(
              Library.start(
                  vertx,
                  new DemoOptions(0, options.patrons(), options.items(), true, true, dir),
                  cluster.url(0)));
      try {
        join(library.registerOn(standaloneUrl));
        List<Mode> modes =
            List.of(
                new Mode(BASELINE, List.of(standaloneUrl)),
                new Mode("1 of " + options.nodes() + " nodes", List.of(cluster.url(0))),
                new Mode(options.nodes() + " nodes", cluster.urls()));
        List<BarcodeRow> rows = BarcodeRows.of(library.data());
        List<RunReport> reports =
            join(
                InTurn.each(
                        options.users(),
                        users ->
                            Comparison.sideBySide(
                                vertx,
                                modes.stream()
                                    .map(
                                        m -> new Contender(plan(options, m, users), rows, m.name()))
                                    .toList(),
                                options.duration(),
                                options.slices()))
                    .map(perUsers -> perUsers.stream().flatMap(List::stream).toList()));
        print(options, reports, loadBefore, loadAverage());
        return reports.stream().anyMatch(r -> r.errors() > 0) ? 1 : 0;
      } finally {
        join(library.close());
      }
    } finally {
      join(
          vertx
              .fileSystem()
              .deleteRecursive(dir.toString())
              .onFailure(e -> log.warn("could not delete {}: {}", dir, e.getMessage()))
              .otherwiseEmpty());
      join(vertx.close());
    }
  }

  private static LoadPlan plan(ClusterThroughputOptions options, Mode mode, int users) {
    return new LoadPlan(
        mode.urls().stream().map(URI::create).toList(),
        DemoOptions.TENANT,
        DemoOptions.ADMIN,
        DemoOptions.ADMIN_PASSWORD,
        users,
        options.warmup(),
        options.duration(),
        1,
        options.maxOperations());
  }

  private static void print(
      ClusterThroughputOptions o, List<RunReport> reports, double loadBefore, double loadAfter) {
    for (int users : o.users()) {
      List<RunReport> same = reports.stream().filter(r -> r.plan().users() == users).toList();
      StringBuilder text =
          new StringBuilder()
              .append(
                  String.format(
                      Locale.ROOT,
                      "%n### %d users%n%n%d s measured per mode in %d interleaved slices, after a %d s"
                          + " warm-up of each; every gateway a JVM of its own (-Xmx256m, %d HTTP verticles);"
                          + " modules, authtoken and this driver in one more JVM; %d cores; load average"
                          + " %.2f before, %.2f after%n%n",
                      users,
                      o.duration().toSeconds(),
                      o.slices(),
                      o.warmup().toSeconds(),
                      o.instances(),
                      Runtime.getRuntime().availableProcessors(),
                      loadBefore,
                      loadAfter));
      text.append(ReportTable.compared(same, BASELINE)).append("\n\n");
      same.forEach(
          r ->
              text.append(
                  String.format(
                      Locale.ROOT,
                      "- %s: gateway CPU %.2f ms per" + " operation (all its gateway JVMs)%n",
                      r.mode(),
                      r.gatewayCpuMsPerOperation())));
      text.append(ReportTable.errorLines(same));
      out.info(text.toString());
    }
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static <T> T join(Future<T> future) {
    return future.toCompletionStage().toCompletableFuture().join();
  }
}
