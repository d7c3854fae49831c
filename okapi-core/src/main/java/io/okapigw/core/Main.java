package io.okapigw.core;

import io.okapigw.config.Commands;
import io.okapigw.config.Settings;
import io.okapigw.config.StartDeadline;
import io.okapigw.core.cluster.ClusterOptions;
import io.okapigw.core.cluster.ClusteredVertx;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.config.GatewaySettings;
import io.okapigw.core.config.OkapiKeys;
import io.okapigw.core.logging.JulBridge;
import io.okapigw.core.logging.LogLevel;
import io.okapigw.core.storage.Storage;
import io.okapigw.core.storage.StorageOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command line: {@code dev|cluster|proxy|initdatabase|purgedatabase [--key value ...] [-conf
 * file.json]}, {@code version}, {@code help [COMMAND]}, Okapi's keys as {@code -Dkey=value} too; a
 * bad setting exits with status 2 and a line naming it; a start that fails or takes longer than
 * {@code --start-timeout} exits with status 1 and a line saying why.
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
          .add(
              "dev",
              "a single-node gateway (no Hazelcast); its registry in memory or in PostgreSQL",
              GatewaySettings.NODE,
              Main::dev)
          .add(
              "cluster",
              "a node of a gateway cluster (Hazelcast)",
              GatewaySettings.ALL,
              Main::cluster)
          .add(
              "proxy",
              "Okapi's proxy-and-discovery node of a cluster: here the same as cluster (every"
                  + " node also deploys modules)",
              GatewaySettings.ALL,
              Main::cluster)
          .add(
              "deployment",
              "Okapi's deployment node of a cluster: here the same as cluster (every node deploys"
                  + " modules and proxies)",
              GatewaySettings.ALL,
              Main::cluster)
          .add(
              "initdatabase",
              "drops the registry's tables with all their data, creates them empty and exits, as"
                  + " Okapi's initdatabase (stop every node first)",
              GatewaySettings.NODE,
              settings -> database(settings, "initdatabase", Storage::init))
          .add(
              "purgedatabase",
              "drops the registry's tables with all their data (Okapi's are left empty, as Okapi"
                  + " leaves them) and exits, as Okapi's purgedatabase (stop every node first)",
              GatewaySettings.NODE,
              settings -> database(settings, "purgedatabase", Storage::purge))
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
    prepare(settings);
    StartDeadline deadline = deadline(settings, "gateway");
    run(
        Vertx.vertx(),
        options,
        "dev mode, " + options.storage().describe() + " registry",
        deadline);
  }

  private static void cluster(Settings settings) {
    ClusterOptions cluster = ClusterOptions.from(settings);
    GatewayOptions options = GatewayOptions.from(settings.except(ClusterOptions.SETTINGS));
    prepare(settings);
    StartDeadline deadline = deadline(settings, "gateway");
    if (cluster.hazelcastConfig() == null && cluster.members().isEmpty()) {
      log.warn(
          "no members and no Hazelcast configuration: this node starts a cluster of its own"
              + " (Okapi would look for members by multicast; give --members or"
              + " -hazelcast-config-file)");
    }
    ClusteredVertx.start(cluster)
        .onSuccess(
            vertx ->
                run(
                    vertx,
                    options,
                    "cluster node at "
                        + (cluster.host() == null
                            ? "the Hazelcast member's address"
                            : cluster.host())
                        + ", "
                        + options.storage().describe()
                        + " registry",
                    deadline))
        .onFailure(e -> deadline.failed("cannot join the cluster: " + e.getMessage()));
  }

  /** Armed before anything starts: the process exits if the start never ends. */
  private static StartDeadline deadline(Settings settings, String what) {
    return StartDeadline.arm(what, settings.get(StartDeadline.START_TIMEOUT), log::error);
  }

  /**
   * Okapi's {@code initdatabase} and {@code purgedatabase}: the work on the storage, then exit 0,
   * or 1 with the reason logged.
   */
  private static void database(
      Settings settings, String command, BiFunction<Vertx, StorageOptions, Future<Void>> work) {
    GatewayOptions options = GatewayOptions.from(settings);
    prepare(settings);
    StartDeadline deadline = deadline(settings, command);
    Vertx vertx = Vertx.vertx();
    StorageOptions storage = options.storage();
    work.apply(vertx, storage)
        .onSuccess(v -> log.info("{} done: {}", command, storage.describe()))
        .onSuccess(v -> deadline.started())
        .onFailure(e -> deadline.failed(e.getMessage()))
        .onSuccess(done -> vertx.close().onComplete(v -> System.exit(0)));
  }

  /** The log level, then what the settings' reading noted, before anything starts. */
  private static void prepare(Settings settings) {
    JulBridge.install();
    LogLevel.apply(settings.get(OkapiKeys.LOGLEVEL), System.getenv("OKAPI_LOGLEVEL"));
    settings.notes().forEach(note -> log.warn("setting {}", note));
    StorageOptions.notes(settings).forEach(note -> log.warn("setting {}", note));
  }

  private static void run(
      Vertx vertx, GatewayOptions options, String mode, StartDeadline deadline) {
    initFirst(vertx, options.storage())
        .compose(v -> Gateway.start(vertx, options))
        .onSuccess(
            gw -> {
              log.info(
                  "gateway {} listening on port {} ({}; node {})",
                  Version.current(),
                  gw.port(),
                  mode,
                  gw.nodeId());
              deadline.started();
              Shutdown.drainOnSignal(vertx, gw::drain, options.drain().longest());
            })
        .onFailure(e -> deadline.failed(e.getMessage()));
    Shutdown.closeOnExit(vertx, Shutdown.CLOSE_LIMIT);
  }

  /** Okapi's deprecated {@code postgres_db_init=1}: {@code initdatabase}, then the start. */
  private static Future<Void> initFirst(Vertx vertx, StorageOptions storage) {
    if (!storage.initFirst() || !storage.isPostgres()) {
      return Future.succeededFuture();
    }
    log.warn(
        "postgres_db_init=1: dropping the registry's tables with their data and creating them"
            + " empty before the start (deprecated in Okapi; use the initdatabase command)");
    return Storage.init(vertx, storage);
  }
}
