package io.okapigw.perf;

import io.okapigw.config.Commands;
import io.okapigw.perf.anonymousflood.AnonymousFloodCommand;
import io.okapigw.perf.anonymousflood.AnonymousFloodOptions;
import io.okapigw.perf.cluster.InvalidationLatency;
import io.okapigw.perf.eureka.EurekaCacheBenchmark;
import io.okapigw.perf.fullfake.FullFakeCommand;
import io.okapigw.perf.fullfake.FullFakeOptions;
import io.okapigw.perf.hop.HopCompare;
import io.okapigw.perf.kit.modules.FakeBodyModule;
import io.okapigw.perf.kit.modules.FixedModule;
import io.okapigw.perf.load.ClusterThroughput;
import io.okapigw.perf.load.LoadCommand;
import io.okapigw.perf.load.faults.FaultsCommand;
import io.okapigw.perf.parallelauth.ParallelAuthCommand;
import io.okapigw.perf.parallelauth.ParallelAuthOptions;
import io.okapigw.perf.profile.ProfileSummary;
import io.okapigw.perf.registryscale.RegistryScale;
import io.okapigw.perf.waterfall.WaterfallCommand;

/** Command line of the perf tools: {@code java -jar perf/target/perf-fat.jar COMMAND ...}. */
public final class Main {

  /** The load driver and the benchmarks. */
  static final Commands COMMANDS =
      Commands.of("java -jar perf/target/perf-fat.jar")
          .add(
              "checkout-checkin",
              "load a running gateway (loopback only): each user logs in once, then checks its own"
                  + " items out and in; prints count, RPS, latency percentiles, errors, auth"
                  + " calls/op; with several gateways user i works at gateway i mod n, and one that"
                  + " refuses connections is taken out (its users move on); a gateway without"
                  + " /_/metrics (Okapi) is loaded the same, its auth calls/op reported n/a; each"
                  + " gateway's CPU is what the kernel charged the process listening on its port"
                  + " (/proc), else its /_/metrics. --vs URL: the same load through two running"
                  + " gateways with the same modules registered (ours and an Okapi, say), in"
                  + " interleaved slices, ratios to the --vs gateway, CPU per operation too. --compare: three demo stacks it starts itself (auth off,"
                  + " cache off, cache on) in interleaved slices; one table per user count",
              LoadCommand.SPEC,
              LoadCommand::run)
          .add(
              "cluster-throughput",
              "check-out/check-in on a standalone gateway, on one node of a cluster and spread"
                  + " over every node (each gateway its own JVM), in interleaved slices; one table"
                  + " per user count with ratios to the standalone gateway",
              ClusterThroughput.SPEC,
              ClusterThroughput::run)
          .add(
              "invalidation-latency",
              "a gateway cluster in separate JVMs: time from an invalidate call to the last"
                  + " node's refusal of a revoked permission",
              InvalidationLatency.SPEC,
              InvalidationLatency::run)
          .add(
              "fullfake",
              "fake module + authtoken + gateway in separate JVMs on 127.0.0.1: each (clients,"
                  + " size) cell direct and through the gateway (auth on, cache warm); markdown"
                  + " table",
              FullFakeOptions.SPEC,
              FullFakeCommand::run)
          .add(
              "parallel-auth",
              "auth.parallel off vs safe on cache misses (a new token per request), next to the"
                  + " auth call and the handler alone; markdown table and the latency target",
              ParallelAuthOptions.SPEC,
              ParallelAuthCommand::run)
          .add(
              "anonymous-flood",
              "a tenant's signed-in users alone and during a tokenless flood of the same tenant"
                  + " (every flood request refused by the auth module), the tenant's"
                  + " bulkhead.max-in-flight between the two, in alternating rounds; markdown table"
                  + " and the users' p99 during the flood against alone",
              AnonymousFloodOptions.SPEC,
              AnonymousFloodCommand::run)
          .add(
              "eureka-cache",
              "Keycloak decisions for N users x M endpoints with token refreshes against a real"
                  + " Keycloak: the gateway's decision cache and a cache of the sidecar's design"
                  + " (250 entries, exp in the key) side by side; Keycloak calls, hit ratio and"
                  + " decision latency per cache",
              EurekaCacheBenchmark.SPEC,
              EurekaCacheBenchmark::run)
          .add(
              "registry-scale",
              "tenants in steps (each installing N descriptors the size of mod-circulation's in"
                  + " one install call) on ours and on Okapi (--okapi-jar), each its own JVM: each"
                  + " step's install time, other tenants' p50/p99 during installs and idle after,"
                  + " heap after GC; then start-up from PostgreSQL with the last step's tenants"
                  + " (ours, Okapi) and a 3-node cluster's time to serve a change on every node",
              RegistryScale.SPEC,
              RegistryScale::run)
          .add("fixed-module", FixedModule.ABOUT, FixedModule.SPEC, FixedModule::serve)
          .add("fake-module", FakeBodyModule.ABOUT, FakeBodyModule.SPEC, FakeBodyModule::serve)
          .add(
              "hop-compare",
              "the module direct, through nginx (1 worker, keep-alive, 64 KB buffers), through our"
                  + " gateway (without and with the auth cache hit) and through --vs, in"
                  + " alternating rounds with wrk; each proxy's CPU per request and per MB from"
                  + " /proc; tables with ratios to nginx; netty-relay and vertx-relay (not by"
                  + " default): bare relays, floors for a JVM proxy",
              HopCompare.SPEC,
              HopCompare::run)
          .add(
              "faults",
              "one fault under the check-out/check-in workload, on 127.0.0.1: kill -9 one of two"
                  + " instances of mod-users and start it again (ours, or okapi-kill: Okapi), a"
                  + " rolling restart (SIGTERM) of a 3-node cluster behind nginx, or a 10x flood"
                  + " from another tenant; ops/s, p50/p99 and errors by status before, during and"
                  + " after, and the targets",
              FaultsCommand.SPEC,
              FaultsCommand::run)
          .add("profile-summary", ProfileSummary.ABOUT, ProfileSummary.SPEC, ProfileSummary::run)
          .add(
              "waterfall",
              "one check-out's trace, cache off and cache on, read from a Jaeger it starts (its"
                  + " binary built by .ci/jaeger.sh) and drawn as SVG waterfalls: each gateway hop"
                  + " a row, its auth call and handler call as bars, cache hits and misses marked",
              WaterfallCommand.SPEC,
              WaterfallCommand::run);

  private Main() {}

  public static void main(String[] args) {
    COMMANDS.main(args);
  }
}
