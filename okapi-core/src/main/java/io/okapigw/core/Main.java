package io.okapigw.core;

import io.okapigw.config.Commands;
import io.okapigw.config.Settings;
import io.okapigw.core.cluster.ClusterOptions;
import io.okapigw.core.cluster.ClusteredVertx;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.config.GatewaySettings;
import io.vertx.core.Vertx;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command line: {@code dev|cluster [--key value ...] [-conf file.json]}, {@code version}, {@code
 * help [COMMAND]}; a bad setting exits with status 2 and a line naming it.
 */
public final class Main {

  private static final Logger log = LoggerFactory.getLogger(Main.class);

  /** Plain-text output for the user (version). */
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private static final String ALLOCATOR_TYPE = "io.netty.allocator.type";

  static {
    preferPooledBuffers();
  }

  /** The gateway's commands and their settings. */
  static final Commands COMMANDS =
      Commands.of("java -jar okapi-core-fat.jar")
          .add("dev", "single-node gateway, in-memory registry", GatewaySettings.NODE, Main::dev)
          .add(
              "cluster",
              "a node of a gateway cluster (Hazelcast)",
              GatewaySettings.ALL,
              Main::cluster)
          .add(
              "version",
              "print the version",
              () -> out.info("okapi-gateway {}", Version.current()));

  private Main() {}

  public static void main(String[] args) {
    COMMANDS.main(args);
  }

  /**
   * Netty's pooled buffer allocator instead of its default (adaptive) one: the proxy spends about
   * an eighth less CPU per request with it (docs/benchmarks.md, hop efficiency). Netty reads the
   * property once, when its allocator class loads, so this runs before anything touches Netty; a
   * {@code -Dio.netty.allocator.type} given on the command line wins.
   */
  private static void preferPooledBuffers() {
    if (System.getProperty(ALLOCATOR_TYPE) == null) {
      System.setProperty(ALLOCATOR_TYPE, "pooled");
    }
  }

  private static void dev(Settings settings) {
    GatewayOptions options = GatewayOptions.from(settings);
    run(Vertx.vertx(), options, "dev mode, " + options.storage() + " registry");
  }

  private static void cluster(Settings settings) {
    ClusterOptions cluster = ClusterOptions.from(settings);
    GatewayOptions options = GatewayOptions.from(settings.except(ClusterOptions.SETTINGS.keys()));
    ClusteredVertx.start(cluster)
        .onSuccess(
            vertx ->
                run(
                    vertx,
                    options,
                    "cluster node at "
                        + cluster.host()
                        + ":"
                        + cluster.port()
                        + ", "
                        + options.storage()
                        + " registry"))
        .onFailure(
            e -> {
              log.error("cannot join the cluster: {}", e.getMessage());
              System.exit(1);
            });
  }

  private static void run(Vertx vertx, GatewayOptions options, String mode) {
    Gateway.start(vertx, options)
        .onSuccess(
            gw ->
                log.info(
                    "gateway {} listening on port {} ({}; node {})",
                    Version.current(),
                    gw.port(),
                    mode,
                    gw.nodeId()))
        .onFailure(
            e -> {
              log.error("gateway failed to start: {}", e.getMessage());
              vertx.close().onComplete(v -> System.exit(1));
            });
    Shutdown.closeOnExit(vertx, Duration.ofSeconds(10));
  }
}
