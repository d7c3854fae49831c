package io.okapigw.perf;

import io.okapigw.core.config.Settings;
import io.okapigw.perf.cluster.InvalidationLatency;
import io.okapigw.perf.containers.ModulesCommand;
import io.okapigw.perf.containers.RegisterCommand;
import io.okapigw.perf.demo.DemoCommand;
import io.okapigw.perf.load.LoadCommand;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Command line of the perf tools: {@code java -jar perf/target/perf-fat.jar COMMAND ...}. */
public final class Main {

  private static final Logger log = LoggerFactory.getLogger(Main.class);
  /** Plain-text output for the user (usage, version). */
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private static final String USAGE = """
      usage: java -jar perf/target/perf-fat.jar COMMAND [--key value ...]
      commands:
        demo [--port 9130] [--patrons 1000] [--items 1000] [--auth on|off] [--cache on|off]
             [--data-dir data/demo]
            gateway + authtoken module + simulated circulation modules, tenant diku,
            user diku_admin / admin; prints login, check-out and check-in commands
        invalidation-latency [--nodes 3] [--trials 1000] [--max-time 10m]
             [--gateway-jar okapi-core/target/okapi-core-fat.jar]
            a gateway cluster in separate JVMs: time from an invalidate call to the last
            node's refusal of a revoked permission
        fixed-module --port P [--size BYTES] [--instances N]
            a module answering every request with BYTES bytes (default 1024)
        modules [--host 0.0.0.0] [--port 9300] [--advertise-host localhost] [--patrons 1000]
             [--items 1000] [--seed 42]
            the simulated modules on fixed ports (port+1 ... port+8) for containers; manifest,
            health and barcodes.csv on port
        register [--gateway http://localhost:9130] [--modules-url http://localhost:9300]
             [--authtoken-url http://localhost:8081] [--tenant diku] [--members 1]
            one-shot job: waits for them, registers authtoken + modules, enables them for the
            tenant, checks the bootstrapped user's login (docker/docker-compose.yml runs it)
        checkout-checkin [--gateway http://localhost:9130] [--tenant diku] [--users 8|1,8,32]
             [--duration 60s] [--warmup 5s] [--username diku_admin] [--password admin]
             [--barcodes data/demo/barcodes.csv | --items N [--patrons N]]
             [--max-operations 1000000] [--probe-rounds 3]
            load a running gateway (loopback only): each user logs in once, then checks its
            own items out and in; prints count, RPS, latency percentiles, errors, auth calls/op
        checkout-checkin --compare [--users 1,8,32] [--duration 60s] [--warmup 5s]
             [--jvm-warmup 20s] [--items 1000] [--patrons 1000]
            the same load on fresh demo stacks with auth off, cache off, cache on; one table
      """;

  private Main() {
  }

  public static void main(String[] args) {
    String command = args.length == 0 ? "help" : args[0];
    List<String> rest = Arrays.asList(args).subList(Math.min(1, args.length), args.length);
    try {
      switch (command) {
        case "demo" -> DemoCommand.run(rest);
        case "checkout-checkin" -> LoadCommand.run(rest);
        case "fixed-module" -> fixedModule(Settings.fromArgs(rest));
        case "modules" -> ModulesCommand.run(rest);
        case "register" -> RegisterCommand.run(rest);
        case "invalidation-latency" -> InvalidationLatency.run(rest);
        default -> {
          out.info(USAGE);
          System.exit("help".equals(command) ? 0 : 2);
        }
      }
    } catch (IllegalArgumentException e) {
      log.error("bad setting: {}", e.getMessage());
      System.exit(2);
    }
  }

  private static void fixedModule(Settings settings) {
    int port = settings.integer("port", 9200, 1, 65535);
    int size = settings.integer("size", 1024, 0, 64 * 1024 * 1024);
    int instances = settings.integer("instances", 1, 1, 64);
    Vertx vertx = Vertx.vertx();
    vertx.deployVerticle(() -> new VerticleBase() {
          @Override
          public Future<?> start() {
            return FixedModule.start(vertx, port, size);
          }
        }, new DeploymentOptions().setInstances(instances))
        .onSuccess(id -> log.info("fixed module on port {} answering {} bytes", port, size))
        .onFailure(e -> {
          log.error("fixed module failed: {}", e.getMessage());
          System.exit(1);
        });
  }
}
