package io.okapigw.perf.load.faults;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.perf.kit.launch.Discovery;
import io.okapigw.perf.kit.launch.ModuleInstance;
import io.okapigw.perf.load.BarcodeRows;
import io.okapigw.perf.load.LoadDriver;
import io.okapigw.perf.load.PhaseFigures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code hang}: mod-users, which every check-out calls, as three instances, each a JVM of its own
 * ({@link ModuleInstance}), in the gateway's discovery in place of the library's own. Under the
 * check-out workload: a phase as it is; the third instance stopped (SIGSTOP: it accepts connections
 * and answers nothing) for {@code hang-for}, its operations counted apart by when they started (the
 * first 2 s, then the rest); then let go on (SIGCONT) and a last phase, which also counts the calls
 * it serves again (from 1 s after SIGCONT on: what it served at once was the requests it held).
 */
final class InstanceHang {

  static final Duration FIRST = Duration.ofSeconds(2);
  private static final Duration SETTLE = Duration.ofSeconds(1);

  /** How often the gateway's view of the stopped instance is read while it hangs. */
  private static final long POLL_MILLIS = 100;

  private InstanceHang() {}

  /** The phases measured, what the gateway had learned of the instance, when it served again. */
  private record Measured(
      PhaseFigures before,
      PhaseFigures first,
      PhaseFigures rest,
      PhaseFigures after,
      JsonObject learned,
      double outSeconds,
      long servedAfter) {}

  static FaultReport run(Stage stage, String gatewayUrl) throws Exception {
    FaultsOptions o = stage.options;
    Library library = stage.library(gatewayUrl);
    List<ModuleInstance> three =
        List.of(
            stage.usersInstance("mod-users-1", 0, Duration.ZERO),
            stage.usersInstance("mod-users-2", 20, Duration.ZERO),
            stage.usersInstance("mod-users-3", 50, Duration.ZERO));
    String srvcId = stage.useUsersInstances(gatewayUrl, three);
    LoadDriver driver =
        stage.driver(
            gatewayUrl, DemoOptions.TENANT, o.users(), o.warmup(), BarcodeRows.of(library.data()));
    Measured m = measure(stage, driver, three.get(2), gatewayUrl, srvcId);
    stage.join(driver::finish);
    String title =
        "our gateway: one of three instances of "
            + srvcId
            + " stopped (SIGSTOP) for "
            + o.hangFor().toSeconds()
            + " s, then let go on";
    return report(new FaultReport(title), DemoOptions.TENANT + ", " + o.users() + " users", o, m);
  }

  private static Measured measure(
      Stage stage, LoadDriver driver, ModuleInstance hung, String gatewayUrl, String srvcId)
      throws Exception {
    FaultsOptions o = stage.options;
    PhaseFigures before = stage.join(() -> driver.phase(o.phase()));
    Future<List<PhaseFigures>> hangPhase = stage.start(() -> driver.phase(o.hangFor(), FIRST));
    Discovery discovery = stage.discovery(gatewayUrl);
    String hungUrl = hung.usersUrl();
    long outBefore = discovery.takenOut(hungUrl);
    hung.pause();
    long stopped = System.nanoTime();
    List<PhaseFigures> during;
    JsonObject learned;
    double out;
    try {
      Future<Double> taken =
          stage.inThread(
              "out-watch",
              () ->
                  awaitOut(
                      discovery, hungUrl, outBefore, stopped, stopped + o.hangFor().toNanos()));
      during = Stage.join(hangPhase);
      out = Stage.join(taken);
      learned = discovery.learned(srvcId, srvcId + "-3");
    } finally {
      hung.resume();
    }
    Future<PhaseFigures> afterPhase = stage.start(() -> driver.phase(o.phase()));
    TimeUnit.MILLISECONDS.sleep(SETTLE.toMillis());
    long settled = hung.served();
    PhaseFigures after = Stage.join(afterPhase);
    return new Measured(
        before, during.get(0), during.get(1), after, learned, out, hung.served() - settled);
  }

  /**
   * @return seconds from {@code stopped} until the gateway had taken the instance at {@code url}
   *     out of the choice (stalled or ejected once more than the {@code before} times it counted at
   *     the stop: {@link Discovery#takenOut}), read every {@value #POLL_MILLIS} ms; -1 if not by
   *     {@code deadline} ({@link System#nanoTime()})
   */
  private static double awaitOut(
      Discovery discovery, String url, long before, long stopped, long deadline) throws Exception {
    while (System.nanoTime() < deadline) {
      if (discovery.takenOut(url) > before) {
        return (System.nanoTime() - stopped) / 1e9;
      }
      TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
    }
    return -1;
  }

  private static FaultReport report(FaultReport report, String load, FaultsOptions o, Measured m) {
    report
        .row(load, "before", "3 instances", m.before())
        .row(load, "hung, first 2 s", "instance 3 stopped (SIGSTOP)", m.first())
        .row(
            load,
            "hung, then",
            "operations started 2 s or more after the stop, until "
                + o.hangFor().toSeconds()
                + " s",
            m.rest())
        .row(load, "after", "instance 3 let go on (SIGCONT)", m.after())
        .note(
            m.outSeconds() < 0
                ? "the gateway never took instance 3 out of the choice while it hung"
                : String.format(
                    Locale.ROOT,
                    "the gateway took instance 3 out of the choice (stalled or ejected) %.1f s"
                        + " after the stop",
                    m.outSeconds()))
        .note(
            "what the gateway had learned of instance 3 at the end of the hang: "
                + m.learned().encode())
        .note(
            "calls instance 3 served in the after phase, from 1 s after SIGCONT on: "
                + m.servedAfter());
    return report
        .target(
            "0 failed operations started 2 s or more after the stop: " + m.rest().errors(),
            m.rest().errors() == 0)
        .target("instance 3 taken back after SIGCONT (serves calls again)", m.servedAfter() > 0);
  }
}
