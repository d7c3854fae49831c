package io.okapigw.core;

import io.okapigw.config.Settings;
import io.okapigw.core.cluster.ClusterOptions;
import io.okapigw.core.cluster.ClusteredVertx;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.config.GatewaySettings;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command line: {@code dev|cluster [--port P] [-conf file.json] [--key value ...]}, {@code
 * version}, {@code help}.
 */
public final class Main {

  private static final Logger log = LoggerFactory.getLogger(Main.class);

  /** Plain-text output for the user (usage, version). */
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  static final String USAGE =
      """
      usage: java -jar okapi-core-fat.jar COMMAND [settings]
      commands:
        dev        single-node gateway, in-memory registry
        cluster    a node of a gateway cluster (Hazelcast); see cluster settings below
        version    print the version
        help       this text
      settings: --key value, --key=value, or keys of a -conf FILE JSON object; flags win.
      Durations need a unit (500ms, 30s, 3m, 1h, 1d; 0 alone needs none); sizes are bytes or
      KB, MB, GB (1KB = 1KiB = 1024 bytes); booleans true/false, yes/no, on/off.
      """
          + GatewaySettings.NODE.help()
          + "cluster settings (command cluster only):\n"
          + ClusterOptions.SETTINGS.help();

  private Main() {}

  public static void main(String[] args) {
    String command = args.length == 0 ? "help" : args[0];
    List<String> rest = Arrays.asList(args).subList(Math.min(1, args.length), args.length);
    switch (command) {
      case "dev" -> dev(rest);
      case "cluster" -> cluster(rest);
      case "version" -> out.info("okapi-gateway {}", Version.current());
      case "help", "--help", "-h" -> out.info(USAGE);
      default -> exit("unknown command '" + command + "'\n" + USAGE);
    }
  }

  private static void dev(List<String> args) {
    GatewayOptions options = parse(() -> GatewayOptions.from(GatewaySettings.NODE.read(args)));
    run(Vertx.vertx(), options, "dev mode, " + options.storage() + " registry");
  }

  private static void cluster(List<String> args) {
    Settings settings = parse(() -> GatewaySettings.ALL.read(args));
    ClusterOptions cluster = parse(() -> ClusterOptions.from(settings));
    GatewayOptions options =
        parse(() -> GatewayOptions.from(settings.except(ClusterOptions.SETTINGS.keys())));
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

  private static <T> T parse(java.util.function.Supplier<T> settings) {
    try {
      return settings.get();
    } catch (IllegalArgumentException e) {
      exit("bad setting: " + e.getMessage());
      throw e;
    }
  }

  private static void exit(String message) {
    log.error(message);
    System.exit(2);
  }
}
