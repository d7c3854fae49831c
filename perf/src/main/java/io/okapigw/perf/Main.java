package io.okapigw.perf;

import io.okapigw.config.Settings;
import io.okapigw.perf.cluster.InvalidationLatency;
import io.okapigw.perf.containers.ModulesCommand;
import io.okapigw.perf.containers.RegisterCommand;
import io.okapigw.perf.demo.DemoCommand;
import io.okapigw.perf.fullfake.FakeBodyModule;
import io.okapigw.perf.fullfake.FullFakeCommand;
import io.okapigw.perf.load.ClusterThroughput;
import io.okapigw.perf.load.LoadCommand;
import io.okapigw.perf.parallelauth.ParallelAuthCommand;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Command line of the perf tools: {@code java -jar perf/target/perf-fat.jar COMMAND ...}. */
public final class Main {

  private static final Logger log = LoggerFactory.getLogger(Main.class);

  /** Plain-text output for the user (usage, version). */
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  private static final String USAGE =
      """
      usage: java -jar perf/target/perf-fat.jar COMMAND [--key value ...]
      commands:
        demo [--port 9130] [--patrons 1000] [--items 1000] [--auth on|off] [--cache on|off]
             [--data-dir data/demo] [--user-lookup local|gateway]
            gateway + authtoken module + simulated circulation modules, tenant diku,
            user diku_admin / admin; admin API protected (super_admin / admin); prints login,
            check-out, check-in and admin API commands; --user-lookup gateway: the authtoken
            module looks users and permissions up in mod-users and mod-permissions through the
            gateway on every decision, as FOLIO's mod-authtoken
        invalidation-latency [--nodes 3] [--trials 1000] [--max-time 10m]
             [--gateway-jar okapi-core/target/okapi-core-fat.jar]
            a gateway cluster in separate JVMs: time from an invalidate call to the last
            node's refusal of a revoked permission
        cluster-throughput [--nodes 3] [--users 8|8,32] [--duration 60s] [--warmup 10s]
             [--slices 6] [--instances 2] [--items 1000] [--patrons 1000]
             [--gateway-jar okapi-core/target/okapi-core-fat.jar] [--max-operations 1000000]
            check-out/check-in on a standalone gateway, on one node of a cluster and spread
            over every node (each gateway its own JVM), in interleaved slices; one table per
            user count with ratios to the standalone gateway
        fixed-module --port P [--size BYTES] [--instances N] [--delay 0ms]
            a module answering every request with BYTES bytes (default 1024), after DELAY
        fake-module --port P [--instances 1]
            the full-fake module: GET /fake/{bytes} streams a generated body of that size
        fullfake [--clients 1,5,10,15,20] [--sizes 1KB,16KB,256KB,1MB,16MB,256MB]
             [--requests 2000] [--max-bytes-per-cell 1GB] [--cell-time-limit 60s]
             [--gateway-heap 256m] [--warmup 1000]
            fake module + authtoken + gateway in separate JVMs on 127.0.0.1: each (clients,
            size) cell direct and through the gateway (auth on, cache warm); markdown table
        parallel-auth [--clients 1,8,32] [--requests 1000] [--rounds 5] [--handler-delay 5ms]
            auth.parallel off vs safe on cache misses (a new token per request), next to the
            auth call and the handler alone; markdown table and the latency target
        hop-compare [--duration 10s] [--warmup 20s] [--settle 2s] [--rounds 3] [--connections 64]
             [--body-connections 5] [--sizes 230B,16KB,16MB] [--vs URL [--vs-pid PID]]
             [--via direct,nginx,netty-relay,vertx-relay,ours,ours+auth,vs] [--base-port 9400]
             [--gateway-jvm-args '...'] [--gateway-args '...']
            the module direct, through nginx (/usr/sbin/nginx, 1 worker), through our gateway
            (without and with the auth cache hit) and through --vs, in alternating rounds with
            wrk; each proxy's CPU per request and per MB from /proc; tables with ratios to nginx;
            netty-relay and vertx-relay (not by default): bare relays, floors for the JVM
        modules [--host 0.0.0.0] [--port 9300] [--advertise-host localhost] [--patrons 1000]
             [--items 1000] [--seed 42]
            the simulated modules on fixed ports (port+1 ... port+9) for containers; manifest,
            health and barcodes.csv on port
        register [--gateway http://localhost:9130] [--modules-url http://localhost:9300]
             [--authtoken-url http://localhost:8081] [--tenant diku] [--members 1]
             [--username diku_admin] [--password admin | --password-env VARIABLE]
             [--admin-username super_admin] [--admin-password-env VARIABLE | --admin-password P]
             [--protect-admin true|false (default: true when an admin password is given)]
            one-shot job: waits for them, registers authtoken + modules, enables them for the
            tenant, checks the bootstrapped user's login, then protects the admin API (authtoken
            enabled for the supertenant); admin calls refused 401/403 are made again as the
            super admin (docker/docker-compose.yml runs it); the gateway may be ours or Okapi
        checkout-checkin [--gateway http://localhost:9130[,http://localhost:9131...]]
             [--tenant diku] [--users 8|1,8,32]
             [--duration 60s] [--warmup 5s] [--username diku_admin] [--password admin]
             [--barcodes data/demo/barcodes.csv | --items N [--patrons N]]
             [--max-operations 1000000] [--probe-rounds 3]
            load a running gateway (loopback only): each user logs in once, then checks its
            own items out and in; prints count, RPS, latency percentiles, errors, auth calls/op;
            with several gateways user i works at gateway i mod n, and one that refuses
            connections is taken out (its users move on); a gateway without /_/metrics
            (Okapi) is loaded the same, its auth calls/op and CPU reported n/a
        checkout-checkin --gateway URL --vs URL [--slices 6] [the flags above]
            the same load through two running gateways with the same modules registered (ours
            and an Okapi, say), measured in interleaved slices (gateway, vs, gateway, ...);
            one table per user count with ratios to the --vs gateway
        checkout-checkin --compare [--users 1,8,32] [--duration 60s] [--warmup 5s]
             [--jvm-warmup 20s] [--slices 6] [--items 1000] [--patrons 1000]
             [--user-lookup local|gateway]
            the same load on three demo stacks (auth off, cache off, cache on), measured in
            interleaved slices; one table per user count; --user-lookup gateway: the authtoken
            module looks each filter call's user and permissions up in mod-users and
            mod-permissions through the gateway, as FOLIO's mod-authtoken does
      """;

  private Main() {}

  public static void main(String[] args) {
    String command = args.length == 0 ? "help" : args[0];
    List<String> rest = Arrays.asList(args).subList(Math.min(1, args.length), args.length);
    try {
      switch (command) {
        case "demo" -> DemoCommand.run(rest);
        case "checkout-checkin" -> LoadCommand.run(rest);
        case "fixed-module" -> fixedModule(Settings.fromArgs(rest));
        case "fake-module" -> FakeBodyModule.serve(rest);
        case "fullfake" -> FullFakeCommand.run(rest);
        case "parallel-auth" -> ParallelAuthCommand.run(rest);
        case "modules" -> ModulesCommand.run(rest);
        case "register" -> RegisterCommand.run(rest);
        case "invalidation-latency" -> InvalidationLatency.run(rest);
        case "cluster-throughput" -> ClusterThroughput.run(rest);
        case "hop-compare" -> io.okapigw.perf.hop.HopCompare.run(rest);
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
    Duration delay = settings.duration("delay", Duration.ZERO);
    Vertx vertx = Vertx.vertx();
    vertx
        .deployVerticle(
            () ->
                new VerticleBase() {
                  @Override
                  public Future<?> start() {
                    return FixedModule.start(vertx, port, size, delay);
                  }
                },
            new DeploymentOptions().setInstances(instances))
        .onSuccess(id -> log.info("fixed module on port {} answering {} bytes", port, size))
        .onFailure(
            e -> {
              log.error("fixed module failed: {}", e.getMessage());
              System.exit(1);
            });
  }
}
