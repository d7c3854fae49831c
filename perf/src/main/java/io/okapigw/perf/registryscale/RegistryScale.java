package io.okapigw.perf.registryscale;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.core.RegistrySeed;
import io.okapigw.perf.kit.latency.Latencies;
import io.okapigw.perf.kit.latency.LatencyStats;
import io.okapigw.perf.kit.launch.LaunchSettings;
import io.okapigw.perf.kit.modules.FixedModule;
import io.okapigw.testsupport.TestPostgres;
import io.okapigw.testsupport.process.GatewayCluster;
import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * {@code registry-scale}: what a registry change costs as a provider grows, ours and Okapi side by
 * side (issue 45, item 5). {@code descriptors} module descriptors the size of mod-circulation's
 * ({@link ScaleDescriptors}) are registered on both (in memory, each its own JVM); tenants {@code
 * t1, t2, ...} are added one at a time, each installing all of them in one {@code POST
 * /_/proxy/tenants/{t}/install}, ours then Okapi. Meanwhile a probe per gateway sends other
 * tenants' GETs (only while that gateway installs: "during"); after each step both stand idle for
 * {@code idle} ("after", the idle figure) and their heap is read after a full GC (jcmd). Then, on
 * PostgreSQL (a server of its own), the database holding the largest step's tenants: each gateway's
 * start until the last tenant's route answers, and a 3-node cluster of ours on it: the time from a
 * tenant's enable on node 1 until every node serves the new route.
 */
public final class RegistryScale {

  public static final Setting<List<Integer>> STEPS =
      Setting.integers("steps", List.of(1, 10, 25, 50, 100, 200, 300), 1, 10_000)
          .about("tenant counts at which a row is measured, ascending");

  public static final Setting<Integer> DESCRIPTORS =
      Setting.integer("descriptors", 60, 1, 1000)
          .about("module descriptors the size of mod-circulation's, each tenant installs all");

  public static final Setting<String> TEMPLATE =
      Setting.text(
              "template", "../shared/folio/mod-circulation.ModuleDescriptor-template.json", "FILE")
          .about("mod-circulation's ModuleDescriptor template");

  public static final Setting<String> OKAPI_JAR =
      Setting.text("okapi-jar", "", "FILE")
          .about("Okapi's okapi-core-fat.jar (6.1.5); none: ours alone");

  public static final Setting<Integer> OKAPI_MAX_TENANTS =
      Setting.integer("okapi-max-tenants", 100, 0, 10_000)
          .about("Okapi takes no tenant past this (its heap grows ~7 MB a tenant: -Xmx1g ends it)");

  public static final Setting<Duration> OKAPI_MAX_INSTALL =
      Setting.duration(
              "okapi-max-install",
              Duration.ofSeconds(60),
              Duration.ofSeconds(1),
              Duration.ofHours(1))
          .about("Okapi takes no more tenants once an install took longer than this");

  public static final Setting<String> HEAP =
      Setting.text("heap", "1g", "SIZE").about("-Xmx of each gateway's JVM");

  public static final Setting<Integer> RATE =
      Setting.integer("rate", 20, 1, 1000).about("probe GETs a second at most, one at a time");

  public static final Setting<Duration> IDLE =
      Setting.duration("idle", Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofMinutes(5))
          .about("each gateway's idle window after a step, its probe measuring");

  public static final Setting<Boolean> POSTGRES =
      Setting.bool("postgres", true)
          .about("measure start-up from PostgreSQL and the 3-node cluster (a server of its own)");

  public static final Setting<Integer> CHANGES =
      Setting.integer("changes", 20, 1, 10_000).about("changes timed on the 3-node cluster");

  public static final Setting<Integer> PORT =
      Setting.integer("port", 22000, 1024, 65000)
          .about(
              "first of the ports used: the module, ours (+1), Okapi (+2, its deployment ports +10..+40)");

  public static final Setting<Duration> MAX_TIME =
      Setting.duration(
              "max-time", Duration.ofMinutes(40), Duration.ofSeconds(10), Duration.ofHours(6))
          .about("no tenant is added after this; the rows reached are printed");

  public static final Setting<String> GATEWAY_JAR = LaunchSettings.GATEWAY_JAR;

  public static final SettingsSpec SPEC =
      SettingsSpec.of(
          STEPS,
          DESCRIPTORS,
          TEMPLATE,
          OKAPI_JAR,
          OKAPI_MAX_TENANTS,
          OKAPI_MAX_INSTALL,
          HEAP,
          RATE,
          IDLE,
          POSTGRES,
          CHANGES,
          PORT,
          MAX_TIME,
          GATEWAY_JAR);

  private final Settings settings;
  private final List<JsonObject> descriptors;
  private final String moduleUrl;

  private RegistryScale(Settings settings, List<JsonObject> descriptors, String moduleUrl) {
    this.settings = settings;
    this.descriptors = descriptors;
    this.moduleUrl = moduleUrl;
  }

  public static void run(Settings settings) {
    Vertx vertx = Vertx.vertx();
    try {
      int port = settings.get(PORT);
      List<JsonObject> descriptors =
          ScaleDescriptors.of(Path.of(settings.get(TEMPLATE)), settings.get(DESCRIPTORS));
      FixedModule.start(vertx, port, 64).await();
      new RegistryScale(settings, descriptors, "http://127.0.0.1:" + port).measure(vertx);
    } catch (Exception e) {
      System.err.println("registry-scale failed: " + e);
      e.printStackTrace();
      System.exit(1);
    } finally {
      vertx.close().await();
    }
  }

  private void measure(Vertx vertx) throws Exception {
    line("registry-scale: load average at start " + loadAverage());
    List<Integer> steps = settings.get(STEPS);
    int port = settings.get(PORT);
    List<Side> sides = new ArrayList<>();
    Side ours = new Side("ours", port + 1, Integer.MAX_VALUE);
    sides.add(ours);
    String okapiJar = settings.get(OKAPI_JAR);
    Side okapi = null;
    if (!okapiJar.isEmpty()) {
      if (!Files.exists(Path.of(okapiJar))) {
        throw new IllegalArgumentException("no such file: " + okapiJar + " (okapi-jar)");
      }
      okapi = new Side("Okapi 6.1.5", port + 2, settings.get(OKAPI_MAX_TENANTS));
      sides.add(okapi);
    }
    int reached = 0;
    try {
      ours.process =
          JavaProcess.launch(
              Path.of(settings.get(GATEWAY_JAR)),
              List.of("-Xmx" + settings.get(HEAP)),
              List.of("dev", "--port", Integer.toString(ours.port), "--host", "127.0.0.1"));
      if (okapi != null) {
        okapi.process =
            JavaProcess.launch(
                Path.of(okapiJar),
                List.of(
                    "-Xmx" + settings.get(HEAP),
                    "-Dloglevel=WARN",
                    "-Dport=" + okapi.port,
                    "-Dport_start=" + (port + 10),
                    "-Dport_end=" + (port + 40),
                    "-Dokapiurl=" + okapi.url),
                List.of("dev"));
      }
      for (Side side : sides) {
        side.process.awaitReady(side.url + "/_/version", JavaProcess.PATIENCE);
        long start = System.nanoTime();
        register(side.url);
        line(
            side.name
                + ": "
                + descriptors.size()
                + " descriptors and their instances registered in "
                + seconds(System.nanoTime() - start));
        side.probe = new Probe(side.name, side.url, descriptors.size(), settings.get(RATE));
        start = System.nanoTime();
        Http.post(side.url + "/_/proxy/tenants", new JsonObject().put("id", "warmup").encode());
        Http.post(side.url + "/_/proxy/tenants/warmup/install", installBody());
        line(
            side.name
                + ": warm-up tenant (not counted) installed in "
                + seconds(System.nanoTime() - start));
      }
      reached = installSteps(sides, steps);
    } finally {
      for (Side side : sides) {
        if (side.probe != null) {
          side.probe.close();
        }
        if (side.process != null) {
          side.process.close();
        }
      }
    }
    printSteps(sides, steps);
    if (settings.get(POSTGRES) && reached > 0) {
      fromPostgres(vertx, okapi, reached);
    }
    line("load average at the end " + loadAverage());
  }

  private void register(String gateway) throws IOException, InterruptedException {
    for (JsonObject d : descriptors) {
      Http.post(gateway + "/_/proxy/modules", d.encode());
      Http.post(
          gateway + "/_/discovery/modules",
          new JsonObject()
              .put("srvcId", d.getString("id"))
              .put("instId", d.getString("id") + "-1")
              .put("url", moduleUrl)
              .encode());
    }
  }

  private String installBody() {
    JsonArray body = new JsonArray();
    descriptors.forEach(
        d -> body.add(new JsonObject().put("id", d.getString("id")).put("action", "enable")));
    return body.encode();
  }

  /**
   * @return the largest step ours reached
   */
  private int installSteps(List<Side> sides, List<Integer> steps) throws Exception {
    long deadline = System.nanoTime() + settings.get(MAX_TIME).toNanos();
    String install = installBody();
    int t = 0;
    int reached = 0;
    for (int step : steps) {
      while (t < step) {
        if (System.nanoTime() > deadline) {
          line("max-time reached at " + t + " tenants");
          return reached;
        }
        t++;
        for (Side side : sides) {
          if (!side.takes(t)) {
            continue;
          }
          long start = System.nanoTime();
          try {
            Http.post(side.url + "/_/proxy/tenants", new JsonObject().put("id", "t" + t).encode());
            side.probe.into(side.duringOf(step));
            start = System.nanoTime();
            Http.post(side.url + "/_/proxy/tenants/t" + t + "/install", install);
          } catch (IOException e) {
            side.probe.into(null);
            side.stopped = true;
            side.stoppedWhy = "t" + t + " failed: " + e.getMessage();
            line(side.name + " takes no more tenants: " + side.stoppedWhy);
            continue;
          }
          long took = System.nanoTime() - start;
          side.probe.into(null);
          side.probe.tenants(t);
          side.installsOf(step).add(took / 1e6);
          if (side.name.startsWith("Okapi") && took > settings.get(OKAPI_MAX_INSTALL).toNanos()) {
            side.stopped = true;
            side.stoppedWhy = "install of t" + t + " took " + seconds(took);
          }
        }
      }
      reached = step;
      for (Side side : sides) {
        if (!side.installs.containsKey(step) || !side.process.isAlive()) {
          continue;
        }
        side.probe.into(side.idleOf(step));
        Thread.sleep(settings.get(IDLE).toMillis());
        side.probe.into(null);
        side.heapAfterGc.put(step, Heap.afterGc(side.port));
      }
      line(stepLine(sides, step));
    }
    return reached;
  }

  private static String stepLine(List<Side> sides, int step) {
    StringBuilder s = new StringBuilder("step " + step + " tenants:");
    for (Side side : sides) {
      if (side.installs.containsKey(step)) {
        s.append(
            String.format(
                Locale.ROOT,
                " %s install p50 %.2f s, heap %d MB, probe during p99 %.1f ms, after p99 %.1f ms;",
                side.name,
                median(side.installs.get(step)) / 1000,
                side.heapAfterGc.getOrDefault(step, -1L) / (1024 * 1024),
                side.duringOf(step).stats().p99(),
                side.idleOf(step).stats().p99()));
      }
    }
    s.append(" load ").append(loadAverage());
    return s.toString();
  }

  private void printSteps(List<Side> sides, List<Integer> steps) {
    Side ours = sides.get(0);
    Side okapi = sides.size() > 1 ? sides.get(1) : null;
    line("");
    line(
        "| tenants | install, ours (p50 of the step) | Okapi 6.1.5 | ours ÷ Okapi | ours ÷ ours at"
            + " 1 tenant | other tenants' p50 / p99 during installs, ours | after (idle), ours |"
            + " during ÷ idle p99, ours | Okapi during / after p99 | heap after GC, ours | Okapi |"
            + " heap ours ÷ Okapi |");
    line("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    Double first = ours.installs.isEmpty() ? null : ours.installs.values().iterator().next().get(0);
    for (int step : steps) {
      if (!ours.installs.containsKey(step)) {
        continue;
      }
      double o = median(ours.installs.get(step));
      LatencyStats during = ours.duringOf(step).stats();
      LatencyStats after = ours.idleOf(step).stats();
      long heap = ours.heapAfterGc.getOrDefault(step, -1L);
      boolean k = okapi != null && okapi.installs.containsKey(step);
      double ok = k ? median(okapi.installs.get(step)) : Double.NaN;
      long okHeap = k ? okapi.heapAfterGc.getOrDefault(step, -1L) : -1;
      line(
          String.format(
              Locale.ROOT,
              "| %d | %.2f s | %s | %s | %.2f | %.1f / %.1f ms | %.1f / %.1f ms | %.2f | %s | %d MB | %s | %s |",
              step,
              o / 1000,
              k ? String.format(Locale.ROOT, "%.2f s", ok / 1000) : "—",
              k ? String.format(Locale.ROOT, "%.2f", o / ok) : "—",
              o / first,
              during.p50(),
              during.p99(),
              after.p50(),
              after.p99(),
              after.p99() > 0 ? during.p99() / after.p99() : Double.NaN,
              k
                  ? String.format(
                      Locale.ROOT,
                      "%.1f / %.1f ms",
                      okapi.duringOf(step).stats().p99(),
                      okapi.idleOf(step).stats().p99())
                  : "—",
              heap / (1024 * 1024),
              k ? (okHeap / (1024 * 1024)) + " MB" : "—",
              k && okHeap > 0 ? String.format(Locale.ROOT, "%.2f", heap / (double) okHeap) : "—"));
    }
    line(
        "probe errors (not 200): ours "
            + ours.probe.errors()
            + (okapi != null ? ", Okapi " + okapi.probe.errors() : "")
            + (okapi != null && okapi.stopped ? "; Okapi stopped: " + okapi.stoppedWhy : "")
            + (okapi != null && !okapi.stopped
                ? "; Okapi capped at " + okapi.maxTenants + " tenants (okapi-max-tenants)"
                : ""));
  }

  /** Start-up from PostgreSQL with {@code tenants} tenants, and the 3-node cluster's changes. */
  private void fromPostgres(Vertx vertx, Side okapi, int tenants) throws Exception {
    try (TestPostgres server = TestPostgres.startOwn()) {
      String uri = server.createDatabase();
      long start = System.nanoTime();
      populate(vertx, uri, tenants);
      line("");
      line(
          "PostgreSQL: "
              + tenants
              + " tenants x "
              + descriptors.size()
              + " modules written in "
              + seconds(System.nanoTime() - start)
              + " (Okapi's tables, by our store)");
      int port = settings.get(PORT);
      String last = "t" + tenants;
      long oursStart =
          startUntilServed(
              "ours",
              JavaProcess.launch(
                  Path.of(settings.get(GATEWAY_JAR)),
                  List.of("-Xmx" + settings.get(HEAP)),
                  List.of(
                      "dev",
                      "--port",
                      Integer.toString(port + 1),
                      "--host",
                      "127.0.0.1",
                      "--storage",
                      uri)),
              port + 1,
              last);
      long okapiStart = -1;
      if (okapi != null) {
        URI u = URI.create(uri);
        String[] user = u.getUserInfo().split(":", 2);
        okapiStart =
            startUntilServed(
                "Okapi 6.1.5",
                JavaProcess.launch(
                    Path.of(settings.get(OKAPI_JAR)),
                    List.of(
                        "-Xmx" + settings.get(HEAP),
                        "-Dloglevel=WARN",
                        "-Dport=" + (port + 2),
                        "-Dport_start=" + (port + 10),
                        "-Dport_end=" + (port + 40),
                        "-Dokapiurl=http://127.0.0.1:" + (port + 2),
                        "-Dstorage=postgres",
                        "-Dpostgres_host=" + u.getHost(),
                        "-Dpostgres_port=" + u.getPort(),
                        "-Dpostgres_username=" + user[0],
                        "-Dpostgres_password=" + user[1],
                        "-Dpostgres_database=" + u.getPath().substring(1)),
                    List.of("dev")),
                port + 2,
                last);
      }
      line(
          String.format(
              Locale.ROOT,
              "| start-up from PostgreSQL, %d tenants x %d modules, until t%d's route answers | ours %s | Okapi 6.1.5 %s | ours ÷ Okapi %s |",
              tenants,
              descriptors.size(),
              tenants,
              oursStart < 0 ? "failed" : seconds(oursStart),
              okapiStart < 0 ? "—" : seconds(okapiStart),
              oursStart > 0 && okapiStart > 0
                  ? String.format(Locale.ROOT, "%.2f", oursStart / (double) okapiStart)
                  : "—"));
      cluster(uri, tenants);
    }
  }

  private void populate(Vertx vertx, String uri, int tenants) {
    List<String> ids = new ArrayList<>();
    for (int t = 1; t <= tenants; t++) {
      ids.add("t" + t);
    }
    RegistrySeed.seed(vertx, uri, descriptors, moduleUrl, ids);
  }

  /**
   * @return nanoseconds from launch until the last tenant's route answers 200; -1 if it never did
   */
  private long startUntilServed(String name, JavaProcess process, int port, String tenant)
      throws InterruptedException {
    long start = System.nanoTime();
    String url = "http://127.0.0.1:" + port + ScaleDescriptors.probePath(descriptors.size() - 1);
    try (process) {
      long deadline = start + JavaProcess.PATIENCE.toNanos();
      while (System.nanoTime() < deadline) {
        if (!process.isAlive()) {
          line(name + " exited during start: " + process.outputTail());
          return -1;
        }
        if (Http.serves(url, tenant)) {
          long took = System.nanoTime() - start;
          long heap = Heap.afterGc(port);
          line(
              name
                  + ": started from PostgreSQL, "
                  + tenant
                  + " served after "
                  + seconds(took)
                  + ", heap after GC "
                  + heap / (1024 * 1024)
                  + " MB");
          return took;
        }
        Thread.sleep(20);
      }
      line(name + " did not serve " + tenant + " within " + JavaProcess.PATIENCE);
      return -1;
    }
  }

  /** Three nodes of ours on the database: each change's time until every node serves it. */
  private void cluster(String uri, int tenants) throws Exception {
    long start = System.nanoTime();
    String last = "t" + tenants;
    String probe = ScaleDescriptors.probePath(descriptors.size() - 1);
    try (GatewayCluster cluster =
        GatewayCluster.start(
            Path.of(settings.get(GATEWAY_JAR)),
            3,
            List.of("-Xmx" + settings.get(HEAP)),
            i -> List.of("--storage", uri))) {
      for (String node : cluster.urls()) {
        while (!Http.serves(node + probe, last)) {
          Thread.sleep(20);
        }
      }
      line(
          "3-node cluster of ours on that database: every node serving "
              + last
              + " after "
              + seconds(System.nanoTime() - start));
      Latencies changes = new Latencies();
      int n = settings.get(CHANGES);
      for (int c = 0; c < n; c++) {
        String id = "mod-probe" + c + "-1.0.0";
        String path = "/probe" + c;
        Http.post(
            cluster.url(0) + "/_/proxy/modules",
            new JsonObject()
                .put("id", id)
                .put(
                    "provides",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("id", "probe" + c)
                                .put("version", "1.0")
                                .put(
                                    "handlers",
                                    new JsonArray()
                                        .add(
                                            new JsonObject()
                                                .put("methods", new JsonArray().add("GET"))
                                                .put("pathPattern", path)
                                                .put("permissionsRequired", new JsonArray())))))
                .encode());
        Http.post(
            cluster.url(0) + "/_/discovery/modules",
            new JsonObject()
                .put("srvcId", id)
                .put("instId", id + "-1")
                .put("url", moduleUrl)
                .encode());
        String tenant = "t" + (1 + c % tenants);
        long t0 = System.nanoTime();
        Http.post(
            cluster.url(0) + "/_/proxy/tenants/" + tenant + "/modules",
            new JsonObject().put("id", id).encode());
        for (String node : cluster.urls()) {
          while (!Http.serves(node + path, tenant)) {
            Thread.sleep(5);
          }
        }
        changes.record(System.nanoTime() - t0);
      }
      LatencyStats s = changes.stats();
      line(
          String.format(
              Locale.ROOT,
              "| 3-node cluster, %d tenants: a tenant's enable on node 1 until all 3 nodes serve it (%d changes) | p50 %.0f ms | p99 %.0f ms | max %.0f ms |",
              tenants,
              n,
              s.p50(),
              s.p99(),
              s.max()));
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "n/a";
    }
  }

  private void line(String s) {
    System.out.println(s);
  }
}
