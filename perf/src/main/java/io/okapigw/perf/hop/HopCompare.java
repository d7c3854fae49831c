package io.okapigw.perf.hop;

import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.perf.kit.probe.HeapSampler;
import io.okapigw.perf.kit.process.Binaries;
import io.okapigw.perf.kit.process.ProcStat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code hop-compare}: the module straight, through nginx, through our gateway (without and with
 * the auth filter's cache hit) and through another gateway ({@code --vs}), measured in alternating
 * rounds with wrk, with each proxy's CPU from the OS's accounting; markdown tables with ratios to
 * nginx. Everything on 127.0.0.1, bounded in time; the processes it started end with it.
 */
public final class HopCompare {

  private static final Logger log = LoggerFactory.getLogger(HopCompare.class);

  /** The tables, for the user. */
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  /** Heap samples of our gateway during a run (each one a /_/metrics request through it). */
  private static final Duration HEAP_PERIOD = Duration.ofSeconds(2);

  private final HopOptions options;
  private final Wrk wrk;
  private final List<Measurement> all = new ArrayList<>();

  private HopCompare(HopOptions options, Wrk wrk) {
    this.options = options;
    this.wrk = wrk;
  }

  /** The settings of {@code hop-compare}. */
  public static final SettingsSpec SPEC = HopOptions.SPEC;

  /**
   * @param settings read by {@link #SPEC}
   * @throws IllegalArgumentException naming a bad setting
   */
  public static void run(Settings settings) {
    try {
      compare(HopOptions.from(settings));
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      // a missing nginx or wrk names its package here; a process that did not start, its log
      log.error("hop-compare failed: {}", e.getMessage());
      System.exit(1);
    }
  }

  private static void compare(HopOptions options) throws Exception {
    String path = System.getenv("PATH");
    Wrk wrk = new Wrk(Binaries.wrk(path));
    Path nginx = options.vias().contains(Via.NGINX) ? Binaries.nginx(path) : null;
    out.info(plan(options));
    Path dir = Files.createTempDirectory("hop-compare-");
    try (HopStack stack = HopStack.start(options, nginx, dir)) {
      new HopCompare(options, wrk).measure(stack);
    }
  }

  static String plan(HopOptions o) {
    return "hop-compare: "
        + o.vias().size()
        + " ways x "
        + o.sizes().size()
        + " sizes: "
        + o.warmup().toSeconds()
        + " s warm-up each, then "
        + o.rounds()
        + " rounds of "
        + o.duration().toSeconds()
        + " s each, each after "
        + o.settle().toSeconds()
        + " s unmeasured: "
        + minutes(o.plannedTime())
        + " of load, plus about a minute to start the processes";
  }

  private void measure(HopStack stack) throws Exception {
    out.info(header());
    for (long size : options.sizes()) {
      for (Via via : options.vias()) {
        Target t = stack.target(via);
        // heap samples in the warm-up too: the first admin request through a proxy path compiled
        // for proxying alone deoptimizes it, and that must not fall into a measured run
        try (HeapSampler heapSampler = HeapSampler.start(t.metrics(), HEAP_PERIOD)) {
          wrk.run(t.url(size), options.connectionsFor(size), options.warmup(), t.headers());
        }
      }
      List<Measurement> ofSize = new ArrayList<>();
      for (int round = 1; round <= options.rounds(); round++) {
        for (Via via : options.vias()) {
          ofSize.add(once(stack, via, size, round));
        }
      }
      all.addAll(ofSize);
      out.info(
          String.format(
              "%n%s bodies, %d connections, %d rounds of %d s (%s, load %s)%n%n%s",
              SizeArgs.format(size),
              options.connectionsFor(size),
              options.rounds(),
              options.duration().toSeconds(),
              now(),
              load(),
              HopTable.table(size, ofSize)));
    }
    out.info("\nTargets (ours vs nginx, round by round):\n{}", HopTable.targets(all));
  }

  private Measurement once(HopStack stack, Via via, long size, int round) throws Exception {
    Target t = stack.target(via);
    // a process idle while the others were measured meets the load warm again before it counts
    if (!options.settle().isZero()) {
      wrk.run(t.url(size), options.connectionsFor(size), options.settle(), t.headers());
    }
    long proxyBefore = ProcStat.cpuNanos(t.proxyPids());
    long systemBefore = ProcStat.systemNanos(t.proxyPids());
    long moduleBefore = ProcStat.cpuNanos(List.of(stack.modulePid()));
    WrkResult result;
    long heap;
    try (HeapSampler heapSampler = HeapSampler.start(t.metrics(), HEAP_PERIOD)) {
      result = wrk.run(t.url(size), options.connectionsFor(size), options.duration(), t.headers());
      heap = heapSampler.largest();
    }
    boolean known = !t.proxyPids().isEmpty();
    long proxy = known ? ProcStat.cpuNanos(t.proxyPids()) - proxyBefore : -1;
    long system = known ? ProcStat.systemNanos(t.proxyPids()) - systemBefore : -1;
    long module = ProcStat.cpuNanos(List.of(stack.modulePid())) - moduleBefore;
    long rss = t.proxyPids().stream().mapToLong(ProcStat::rssBytes).filter(b -> b >= 0).sum();
    return new Measurement(
        via, size, round, result, proxy, system, module, heap, t.proxyPids().isEmpty() ? -1 : rss);
  }

  private String header() {
    return "started "
        + now()
        + ", load "
        + load()
        + "; CPU from /proc/PID/stat (user+system) over each run; MB = 2^20 bytes";
  }

  private static String now() {
    return ZonedDateTime.now(ZoneOffset.UTC)
        .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
  }

  private static String load() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (java.io.IOException e) {
      return "n/a";
    }
  }

  private static String minutes(Duration d) {
    return d.toMinutes() + " min " + d.toSecondsPart() + " s";
  }
}
