package io.okapigw.perf.load.faults;

import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.perf.kit.haproxy.Haproxy;
import io.okapigw.perf.kit.haproxy.HaproxyConfig;
import io.okapigw.perf.kit.launch.BenchUser;
import io.okapigw.perf.kit.launch.Logins;
import io.okapigw.perf.kit.process.Binaries;
import io.okapigw.perf.load.BarcodeRows;
import io.okapigw.perf.load.LoadDriver;
import io.okapigw.perf.load.PhaseFigures;
import io.okapigw.testsupport.process.GatewayCluster;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * {@code node-pause}: a 3-node cluster of our gateway with Hazelcast's short timings (heartbeat
 * timeout 5 s, heartbeats every 1 s, split-brain merges tried every 5 s, as PartitionHealTest has
 * them; {@code --cluster.ack-timeout 60s}) behind HAProxy (active checks of each node's {@code
 * /_/proxy/health}: 503 while a node says not ready; as {@code rolling-restart}), the authtoken
 * module in a JVM of its own told about every node, the users working through HAProxy. A phase as
 * it is; node 3 stopped (SIGSTOP) until nodes 1 and 2 have dropped it, a probe user's permission
 * revoked on them meanwhile (and seen refused by both), the stop held for {@code hang-for} in all;
 * node 3 let go on (SIGCONT) and watched until it says ready again with 3 members (after it said
 * not ready), the probe's request sent to node 3 directly all along; a phase after, the probe still
 * asking node 3. Before issue 43, item 1, the resumed node said ready throughout and served its own
 * copy of the maps: the revoked grant among them.
 */
final class NodePause {

  static final String ABOUT =
      "`node-pause`: node 3 of a 3-node cluster behind HAProxy (Hazelcast's heartbeat timeout 5 s)"
          + " stopped (SIGSTOP) for `hang-for`, a probe user's permission revoked on nodes 1 and 2"
          + " meanwhile, then let go on (SIGCONT): operations failed before, during, until it says"
          + " ready again and after, and whether it ever grants the revoked permission";

  static final int NODES = 3;

  /** The node paused: the third. */
  private static final int CUT = 2;

  static final List<String> FAST_HAZELCAST =
      List.of(
          "-Dhazelcast.max.no.heartbeat.seconds=5",
          "-Dhazelcast.heartbeat.interval.seconds=1",
          "-Dhazelcast.merge.first.run.delay.seconds=5",
          "-Dhazelcast.merge.next.run.delay.seconds=5");

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final String HEALTH = "/_/proxy/health";

  /** Bounds of the waits: the majority dropping node 3, node 3 ready again. */
  private static final Duration DROP_BOUND = Duration.ofMinutes(2);

  private static final Duration READY_BOUND = Duration.ofMinutes(5);

  /** A node that never says not ready after its resume is ready again after this. */
  private static final Duration NEVER_NOT_READY = Duration.ofMinutes(2);

  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
  private static final long PROBE_PAUSE_MILLIS = 50;

  private static final String PROBE = "diku_probe";
  private static final String PROBE_PASSWORD = "probe";
  private static final String PERMISSION = "circulation.check-out-by-barcode.post";
  private static final String PATH = "/circulation/check-out-by-barcode";

  private static final HttpClient HTTP = LoopbackHttp.CLIENT;

  /** What happened while node 3 was stopped. */
  private record Split(double droppedSeconds, double refusedSeconds, double stoppedSeconds) {}

  private NodePause() {}

  static FaultReport run(Stage stage) throws Exception {
    FaultsOptions o = stage.options;
    int lbPort = o.basePort() + 40;
    String lb = "http://127.0.0.1:" + lbPort;
    List<String> args = new ArrayList<>(List.of("--okapi-url", lb, "--cluster.ack-timeout", "60s"));
    args.addAll(o.gatewayArgs());
    try (GatewayCluster cluster =
            GatewayCluster.start(o.gatewayJar(), NODES, FAST_HAZELCAST, i -> args);
        AuthtokenJvm authtoken =
            AuthtokenJvm.start(
                stage,
                "authtoken",
                "json:" + stage.dir.resolve("authtoken-store"),
                String.join(",", cluster.urls()),
                List.of(
                    new BootstrapUser(
                        DemoOptions.TENANT, PROBE, PROBE_PASSWORD, List.of(PERMISSION))))) {
      List<Integer> ports = cluster.urls().stream().map(u -> URI.create(u).getPort()).toList();
      Haproxy.start(
          stage.children,
          Binaries.haproxy(System.getenv("PATH")),
          stage.dir.resolve("haproxy"),
          new HaproxyConfig(lbPort, ports, HEALTH),
          "/_/version",
          START_TIMEOUT);
      Library library = stage.library(lb, authtoken.url());
      LoadDriver driver =
          stage.driver(
              lb, DemoOptions.TENANT, o.users(), o.warmup(), BarcodeRows.of(library.data()));
      String token =
          stage.join(
              () ->
                  Logins.one(
                      stage.vertx,
                      cluster.url(CUT),
                      new BenchUser(
                          DemoOptions.TENANT, PROBE, PROBE_PASSWORD, List.of(PERMISSION))));
      Probe probe = new Probe(cluster.urls(), authtoken.url(), token);
      int granted = probe.grantedEverywhere();

      PhaseFigures before = stage.join(() -> driver.phase(o.phase()));
      // the stage each operation starts in: 0 node 3 stopped, 1 let go on, 2 ready again; the
      // marks: stopped, let go on, ready again, the after phase's end
      AtomicInteger now = new AtomicInteger();
      AtomicLongArray marks = new AtomicLongArray(4);
      ResumeWatch watch = new ResumeWatch(NODES, NEVER_NOT_READY.toMillis(), granted);
      marks.set(0, System.nanoTime());
      cluster.pause(CUT);
      Future<Split> split =
          stage.inThread(
              "node-pause",
              () -> {
                try {
                  return split(cluster, probe, marks.get(0), o.hangFor());
                } finally {
                  cluster.resume(CUT);
                  marks.set(1, System.nanoTime());
                  now.set(1);
                }
              });
      Future<ResumeWatch> readyAgain =
          split.transform(
              s ->
                  stage.inThread(
                      "resume-watch",
                      () -> {
                        try {
                          return probe.watch(watch, marks.get(1));
                        } finally {
                          marks.set(2, System.nanoTime());
                          now.set(2);
                        }
                      }));
      Future<Integer> afterProbes =
          readyAgain.transform(
              r ->
                  stage.inThread(
                      "after-probe",
                      () -> {
                        try {
                          return probe.keepAsking(watch, o.phase());
                        } finally {
                          marks.set(3, System.nanoTime());
                        }
                      }));
      Duration bound =
          DROP_BOUND.plus(o.hangFor()).plus(READY_BOUND).plus(o.phase().multipliedBy(2));
      List<PhaseFigures> stages =
          stage.join(
              () ->
                  driver.phase(
                      bound,
                      afterProbes,
                      now::get,
                      3,
                      i -> Duration.ofNanos(Math.max(0, marks.get(i + 1) - marks.get(i)))));
      PhaseFigures paused = stages.get(0);
      PhaseFigures resuming = stages.get(1);
      PhaseFigures after = stages.get(2);
      stage.join(driver::finish);
      String load = DemoOptions.TENANT + ", " + o.users() + " users, through HAProxy";
      return report(o, load, before, paused, resuming, after, split, readyAgain, watch);
    }
  }

  /**
   * Node 3 stopped: waits until nodes 1 and 2 have dropped it, revokes the probe's permission,
   * waits until both refuse it, then until {@code hangFor} has passed since the stop.
   */
  private static Split split(GatewayCluster cluster, Probe probe, long stopped, Duration hangFor)
      throws Exception {
    long bound = stopped + DROP_BOUND.toNanos();
    while (!(probe.ready(0, NODES - 1) && probe.ready(1, NODES - 1))) {
      if (System.nanoTime() > bound) {
        throw new IllegalStateException("nodes 1 and 2 did not drop node 3 within " + DROP_BOUND);
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
    double dropped = seconds(System.nanoTime() - stopped);
    probe.setPermissions("[]");
    while (!(probe.status(0) == 403 && probe.status(1) == 403)) {
      if (System.nanoTime() > bound) {
        throw new IllegalStateException("nodes 1 and 2 did not refuse the revoked permission");
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    double refused = seconds(System.nanoTime() - stopped);
    long rest = stopped + hangFor.toNanos() - System.nanoTime();
    if (rest > 0) {
      TimeUnit.NANOSECONDS.sleep(rest);
    }
    return new Split(dropped, refused, seconds(System.nanoTime() - stopped));
  }

  private static FaultReport report(
      FaultsOptions o,
      String load,
      PhaseFigures before,
      PhaseFigures paused,
      PhaseFigures resuming,
      PhaseFigures after,
      Future<Split> split,
      Future<ResumeWatch> readyAgain,
      ResumeWatch w) {
    FaultReport report =
        new FaultReport(
                "node 3 of a "
                    + NODES
                    + "-node cluster behind HAProxy stopped (SIGSTOP) past Hazelcast's heartbeat"
                    + " timeout (5 s), then let go on (SIGCONT)")
            .row(load, "before", NODES + " nodes", before)
            .row(
                load,
                "paused",
                "operations started while node 3 was stopped; the probe's permission revoked",
                paused)
            .row(
                load,
                "resumed",
                "started from node 3's SIGCONT until it said ready again",
                resuming)
            .row(
                load,
                "after ready",
                "started once node 3 was ready again with " + NODES + " members",
                after);
    if (split.failed()) {
      report.note("the split went wrong: " + split.cause().getMessage());
    } else {
      Split s = split.result();
      report.note(
          String.format(
              Locale.ROOT,
              "nodes 1 and 2 dropped node 3 %.1f s after the stop; both refused the revoked"
                  + " permission %.1f s after it; node 3 stopped for %.1f s",
              s.droppedSeconds(),
              s.refusedSeconds(),
              s.stoppedSeconds()));
    }
    if (readyAgain.failed()) {
      report.note("node 3 not ready again: " + readyAgain.cause().getMessage());
    } else {
      report.note(
          String.format(
              Locale.ROOT,
              "node 3 ready again (200, %d members) %.1f s after SIGCONT; it said not ready"
                  + " meanwhile: %s",
              NODES,
              w.readyMillis() / 1000.0,
              w.saidNotReady() ? "yes" : "no"));
    }
    report
        .note(
            "the probe's request to node 3, from SIGCONT until it was ready again: "
                + w.beforeReadyText())
        .note("the same, once it was ready again: " + w.afterReadyText());
    int grants = w.grantsBeforeReady() + w.grantsAfterReady();
    return report
        .target(
            "0 failed operations after node 3 is ready again: " + after.errors(),
            split.succeeded() && readyAgain.succeeded() && after.errors() == 0)
        .target(
            String.format(
                Locale.ROOT,
                "node 3 never grants the revoked permission: %d of %d probes before it was ready"
                    + " again, %d of %d after",
                w.grantsBeforeReady(),
                w.probesBeforeReady(),
                w.grantsAfterReady(),
                w.probesAfterReady()),
            split.succeeded() && grants == 0 && w.probesAfterReady() > 0);
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  /** The probe user's requests and the nodes' health. Blocking. */
  private record Probe(List<String> nodes, String authtokenUrl, String token) {

    /**
     * Waits until every node grants the probe's permission (cached on node 3 too).
     *
     * @return the status the granted request is answered (the module's, for an unknown barcode)
     */
    int grantedEverywhere() throws IOException, InterruptedException {
      int granted = -1;
      for (int node = 0; node < nodes.size(); node++) {
        long bound = System.nanoTime() + DROP_BOUND.toNanos();
        int status;
        while ((status = status(node)) == 403 || status == 401 || status < 0) {
          if (System.nanoTime() > bound) {
            throw new IllegalStateException("node " + (node + 1) + " does not grant the probe");
          }
          TimeUnit.MILLISECONDS.sleep(200);
        }
        if (granted >= 0 && status != granted) {
          throw new IllegalStateException(
              "nodes answer the granted probe " + granted + " and " + status);
        }
        granted = status;
      }
      return granted;
    }

    /**
     * From SIGCONT on: node 3's health and the probe's request, in turn, until it is ready again.
     */
    ResumeWatch watch(ResumeWatch w, long resumed) throws IOException, InterruptedException {
      long bound = resumed + READY_BOUND.toNanos();
      while (true) {
        JsonObject health = health(CUT);
        long millis = (System.nanoTime() - resumed) / 1_000_000;
        if (w.health(health.getInteger("code"), health.getInteger("members", 0), millis)) {
          return w;
        }
        w.probe(status(CUT));
        if (System.nanoTime() > bound) {
          throw new IllegalStateException(
              "node 3 not ready again within " + READY_BOUND + ": " + health.encode());
        }
        TimeUnit.MILLISECONDS.sleep(PROBE_PAUSE_MILLIS);
      }
    }

    /**
     * The probe's request to node 3 for {@code length}.
     *
     * @return how many were sent
     */
    int keepAsking(ResumeWatch w, Duration length) throws InterruptedException {
      long end = System.nanoTime() + length.toNanos();
      int asked = 0;
      while (System.nanoTime() < end) {
        w.probe(status(CUT));
        asked++;
        TimeUnit.MILLISECONDS.sleep(PROBE_PAUSE_MILLIS);
      }
      return asked;
    }

    boolean ready(int node, int members) throws InterruptedException {
      JsonObject health = health(node);
      return health.getInteger("code") == 200 && health.getInteger("members", 0) == members;
    }

    /**
     * @return node {@code i}'s {@code /_/proxy/health} with its status as {@code code} (-1: no
     *     answer)
     */
    JsonObject health(int node) throws InterruptedException {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(nodes.get(node) + HEALTH))
              .timeout(REQUEST_TIMEOUT)
              .GET()
              .build();
      try {
        HttpResponse<String> health = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        String body = health.body();
        JsonObject json = body.startsWith("{") ? new JsonObject(body) : new JsonObject();
        return json.put("code", health.statusCode());
      } catch (IOException | RuntimeException e) {
        return new JsonObject().put("code", -1).put("error", e.toString());
      }
    }

    /**
     * @return the status of the probe's check-out with an unknown barcode on node {@code node}: 403
     *     when refused, the module's answer when granted, -1 for none
     */
    int status(int node) throws InterruptedException {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(nodes.get(node) + PATH))
              .timeout(REQUEST_TIMEOUT)
              .header("X-Okapi-Tenant", DemoOptions.TENANT)
              .header("X-Okapi-Token", token)
              .header("Content-Type", "application/json")
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      "{\"itemBarcode\":\"no-such-item\",\"userBarcode\":\"no-such-user\"}"))
              .build();
      try {
        return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
      } catch (IOException e) {
        return -1;
      }
    }

    void setPermissions(String json) throws IOException, InterruptedException {
      ProbePermissions.set(authtokenUrl, REQUEST_TIMEOUT, json);
    }
  }
}
