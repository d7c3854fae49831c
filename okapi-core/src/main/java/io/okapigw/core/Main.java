package io.okapigw.core;

import io.okapigw.config.Settings;
import io.okapigw.core.cluster.ClusterOptions;
import io.okapigw.core.cluster.ClusteredVertx;
import io.okapigw.core.config.GatewayOptions;
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
      settings (as --key value, --key=value, or keys of a -conf JSON file; flags win):
        --port P                  HTTP port (default 9130)
        --host H                  interface to listen on (default 0.0.0.0)
        --okapi-url URL           X-Okapi-Url given to modules (default http://localhost:PORT)
        --instances N             event-loop verticles (default: cores)
        --max-header-size BYTES   larger request headers get 431 (default 16384)
        --server.header-timeout D request headers must be complete D after connecting or
                                  after the previous response, else the connection is closed
                                  (also the keep-alive idle time; default 75s; 0 = off)
        --server.idle-timeout D   close a client connection with no byte either way for D;
                                  longer than proxy.idle-timeout (default 120s; 0 = off)
        --proxy.connect-timeout D connect timeout to modules (default 5s)
        --proxy.idle-timeout D    idle timeout to modules (default 60s)
        --proxy.max-connections N pool size per module instance and event loop (default 64)
        --auth.cache.enabled B    cache auth decisions (default true)
        --auth.cache.ttl D        longest an entry lives, never past its token's exp (default 180s)
        --auth.cache.max-size N   entries kept, W-TinyLFU eviction (default 100000)
        --auth.cache.negative-ttl D   cache 401/403 answers this long (default 0 = off)
        --auth.cache.stale-if-error D serve an expired entry this much longer while the auth
                                  module is unreachable, never past token exp (default 0 = off)
        --auth.parallel M         off (default) or safe: GET/HEAD run the handler during the
                                  auth call on a cache miss; the answer waits for the decision
        --storage S               inmemory (default) or postgresql://user:pass@host:port/db
        --tenant.init-timeout D   longest a module's _tenant call (a 2.0 job included) may take
                                  before install fails naming it (default 30m)
        --tenant.poll-interval D  wait before polling a _tenant 2.0 job again; grows 1.25x
                                  per poll, at most 5s (default 300ms)
        --admin.port P            a listener of its own for the admin API /_/ (default: none)
        --admin.host H            interface of that listener (default 127.0.0.1)
        --admin.public B          serve /_/ on the public listener too (default true; false
                                  needs admin.port and keeps only /_/proxy/health and
                                  /_/invoke/tenant/... public)
        -conf FILE                JSON object with any of the keys above
      cluster settings:
        --cluster-host H          address this node binds to and advertises (default 127.0.0.1)
        --cluster-port C          Hazelcast member port (default 5701)
        --members h:p,h:p         TCP/IP members to join (multicast is off); none = new cluster
        --hazelcast-config F      Hazelcast XML/YAML file overriding the three above
        --cluster.ack-timeout D   wait for other nodes to confirm changes (default 2s)
      """;

  private static final String ALLOCATOR_TYPE = "io.netty.allocator.type";

  private Main() {}

  public static void main(String[] args) {
    preferPooledBuffers();
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

  private static void dev(List<String> args) {
    GatewayOptions options = parse(() -> GatewayOptions.from(Settings.fromArgs(args)));
    run(Vertx.vertx(), options, "dev mode, " + options.storage() + " registry");
  }

  private static void cluster(List<String> args) {
    Settings settings = parse(() -> Settings.fromArgs(args));
    ClusterOptions cluster = parse(() -> ClusterOptions.from(settings));
    GatewayOptions options = parse(() -> GatewayOptions.from(settings.except(ClusterOptions.KEYS)));
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
