package io.okapigw.perf.cluster;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.AuthtokenVerticle;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.folio.register.AuthtokenDescriptor;
import io.okapigw.folio.register.GatewayRegistration;
import io.okapigw.folio.register.GatewayRegistration.Module;
import io.okapigw.perf.kit.latency.Latencies;
import io.okapigw.perf.kit.latency.LatencyStats;
import io.okapigw.perf.kit.launch.LaunchSettings;
import io.okapigw.perf.kit.modules.FixedModule;
import io.okapigw.testsupport.Descriptors;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.GatewayCluster;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code invalidation-latency}: how fast a revoked permission takes effect on every node of a
 * cluster. Per trial: every node caches a grant; the permission is revoked in the authtoken module
 * (which is not told to invalidate, so the trial controls the moment); then, timed, one node gets
 * {@code POST /_/proxy/auth-cache/invalidate} and, once it answers, every node is asked again; the
 * trial's figure is the time until the last node's refusal. A node still granting after the answer
 * counts as a stale grant (must be 0).
 */
public final class InvalidationLatency {

  public static final Setting<Integer> NODES =
      Setting.integer("nodes", 3, 1, 9).about("gateway nodes, each a JVM of its own");

  public static final Setting<Integer> TRIALS =
      Setting.integer("trials", 1000, 1, 100_000).about("trials, one after the other");

  public static final Setting<Duration> MAX_TIME =
      Setting.duration(
              "max-time", Duration.ofMinutes(10), Duration.ofSeconds(1), Duration.ofDays(1))
          .about("no trial starts after this");

  public static final Setting<String> GATEWAY_JAR =
      LaunchSettings.GATEWAY_JAR.about("the gateway's fat jar the nodes run");

  /** The settings of {@code invalidation-latency}. */
  public static final SettingsSpec SPEC = SettingsSpec.of(NODES, TRIALS, MAX_TIME, GATEWAY_JAR);

  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");
  private static final Logger log = LoggerFactory.getLogger(InvalidationLatency.class);
  private static final String TENANT = "bench";

  private InvalidationLatency() {}

  /**
   * Runs the benchmark and prints a table; bounded by {@code --trials} and {@code --max-time}.
   * Exits the JVM with 1 if the cluster cannot be set up or a trial call fails.
   *
   * @param settings read by {@link #SPEC}
   */
  public static void run(Settings settings) {
    try {
      measure(settings);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      log.error("invalidation-latency failed: {}", e.getMessage());
      System.exit(1);
    }
  }

  private static void measure(Settings settings) throws Exception {
    int nodes = settings.get(NODES);
    int trials = settings.get(TRIALS);
    Duration maxTime = settings.get(MAX_TIME);
    Path jar = Path.of(settings.get(GATEWAY_JAR));
    Vertx vertx = Vertx.vertx();
    try (GatewayCluster cluster = GatewayCluster.start(jar, nodes, List.of())) {
      Admin admin = setUp(vertx, cluster);
      Trials result = new Trials(admin, cluster, trials, maxTime).run();
      out.info(result.table(nodes));
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static Admin setUp(Vertx vertx, GatewayCluster cluster) throws Exception {
    Path dir = Files.createTempDirectory("okapigw-invalidation");
    int authPort = FreePorts.belowEphemeralRange();
    int modulePort = FreePorts.belowEphemeralRange();
    vertx
        .deployVerticle(
            new AuthtokenVerticle(
                AuthtokenOptions.onLoopback(dir)
                    .withPort(authPort)
                    .withPasswords(PasswordOptions.cheapest())
                    .withBootstrap(
                        List.of(
                            new BootstrapUser(TENANT, "alice", "alice", List.of("items.get"))))))
        .toCompletionStage()
        .toCompletableFuture()
        .get(60, TimeUnit.SECONDS);
    FixedModule.start(vertx, modulePort, 64)
        .toCompletionStage()
        .toCompletableFuture()
        .get(60, TimeUnit.SECONDS);
    JsonObject items =
        Descriptors.module(
            "mod-items-1.0.0", "items", Descriptors.handler("GET", "/items", "items.get"));
    GatewayRegistration.register(
            vertx,
            cluster.url(0),
            TENANT,
            List.of(
                new Module(AuthtokenDescriptor.read(), "http://127.0.0.1:" + authPort),
                new Module(items, "http://127.0.0.1:" + modulePort)))
        .toCompletionStage()
        .toCompletableFuture()
        .get(60, TimeUnit.SECONDS);
    Admin admin =
        new Admin(
            cluster.url(0),
            "http://127.0.0.1:" + authPort,
            TENANT,
            UUID.nameUUIDFromBytes((TENANT + ":alice").getBytes(StandardCharsets.UTF_8))
                .toString());
    admin.login("alice", "alice");
    log.info("cluster of {} nodes ready; user {} logged in", cluster.size(), "alice");
    return admin;
  }

  /** Sequential trials and their summary. */
  private static final class Trials {
    private final Admin admin;
    private final GatewayCluster cluster;
    private final int count;
    private final Duration maxTime;
    private final Latencies untilRefused = new Latencies();
    private final Latencies invalidateCall = new Latencies();
    private int staleGrants;
    private int unacknowledged;

    Trials(Admin admin, GatewayCluster cluster, int count, Duration maxTime) {
      this.admin = admin;
      this.cluster = cluster;
      this.count = count;
      this.maxTime = maxTime;
    }

    Trials run() throws IOException, InterruptedException {
      long deadline = System.nanoTime() + maxTime.toNanos();
      for (int i = 0; i < count && System.nanoTime() < deadline; i++) {
        trial(cluster.url(i % cluster.size()));
      }
      return this;
    }

    private void trial(String invalidateOn) throws IOException, InterruptedException {
      admin.setPermissions(List.of("items.get"));
      admin.invalidateUser(cluster.url(0));
      for (int n = 0; n < cluster.size(); n++) {
        admin.expect(cluster.url(n), 200);
      }
      admin.setPermissions(List.of());
      long start = System.nanoTime();
      HttpResponse<String> answer = admin.invalidateUser(invalidateOn);
      long acknowledged = System.nanoTime();
      unacknowledged += answer.statusCode() == 204 ? 0 : 1;
      List<Integer> statuses = admin.getAll(cluster);
      long refused = System.nanoTime();
      staleGrants += (int) statuses.stream().filter(s -> s == 200).count();
      invalidateCall.record(acknowledged - start);
      untilRefused.record(refused - start);
    }

    String table(int nodes) {
      return """

          Invalidation propagation, %d nodes, %d trials (loopback, one machine)

          | measure | p50 ms | p90 ms | p99 ms | max ms |
          |---|---|---|---|---|
          | invalidate call answered (all members confirmed) | %s |
          | invalidate call to the last node's refusal | %s |

          stale grants after the answer: %d; answers other than 204: %d
          """
          .formatted(
              nodes,
              untilRefused.count(),
              row(invalidateCall.stats()),
              row(untilRefused.stats()),
              staleGrants,
              unacknowledged);
    }

    /**
     * @return "p50 | p90 | p99 | max" in milliseconds
     */
    private static String row(LatencyStats stats) {
      return String.format(
          "%.2f | %.2f | %.2f | %.2f", stats.p50(), stats.p90(), stats.p99(), stats.max());
    }
  }
}
