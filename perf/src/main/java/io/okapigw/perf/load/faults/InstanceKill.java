package io.okapigw.perf.load.faults;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.perf.kit.launch.ModuleInstance;
import io.okapigw.perf.load.BarcodeRows;
import io.okapigw.perf.load.LoadDriver;
import io.okapigw.perf.load.PhaseFigures;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code kill} and {@code okapi-kill}: mod-users, which every check-out calls, runs as two
 * instances, each a JVM of its own ({@link ModuleInstance}), in the gateway's discovery in place of
 * the library's own. Under the check-out workload: a phase as it is; the second instance killed
 * (kill -9) at the start of the next; then started again (same port), the load going on until it
 * listens; a last phase from then on, which also watches when the gateway connects to it again
 * ("taken back").
 */
final class InstanceKill {

  private static final long POLL_MILLIS = 50;
  private static final Duration RESTART_TIMEOUT = Duration.ofSeconds(120);

  private InstanceKill() {}

  /** The phases and times measured; seconds -1 when the gateway never connected again. */
  private record Measured(
      PhaseFigures before,
      PhaseFigures down,
      PhaseFigures restarting,
      PhaseFigures back,
      double restartSeconds,
      double takenBackSeconds) {}

  /**
   * @param gatewayUrl the running gateway (ours or Okapi), nothing registered yet
   * @param gateway its name for the report
   */
  static FaultReport run(Stage stage, String gatewayUrl, String gateway) throws Exception {
    FaultsOptions o = stage.options;
    Library library = stage.library(gatewayUrl);
    ModuleInstance first = stage.usersInstance("mod-users-1", 0, Duration.ZERO);
    ModuleInstance second = stage.usersInstance("mod-users-2", 20, Duration.ZERO);
    String srvcId = stage.useUsersInstances(gatewayUrl, List.of(first, second));
    LoadDriver driver =
        stage.driver(
            gatewayUrl, DemoOptions.TENANT, o.users(), o.warmup(), BarcodeRows.of(library.data()));
    Measured m = measure(stage, driver, second);
    stage.join(driver::finish);
    String title =
        gateway + ": kill -9 one of two instances of " + srvcId + ", then start it again";
    return report(new FaultReport(title), DemoOptions.TENANT + ", " + o.users() + " users", o, m);
  }

  private static Measured measure(Stage stage, LoadDriver driver, ModuleInstance second)
      throws Exception {
    Duration phase = stage.options.phase();
    PhaseFigures before = stage.join(() -> driver.phase(phase));
    Future<PhaseFigures> downPhase = stage.start(() -> driver.phase(phase));
    second.kill();
    PhaseFigures down = Stage.join(downPhase);
    long restart = System.nanoTime();
    Future<Void> started = stage.inThread("restart", () -> startAgain(second));
    PhaseFigures restarting =
        stage.join(() -> driver.phase(RESTART_TIMEOUT, started.otherwiseEmpty()));
    long listening = System.nanoTime();
    Stage.join(started);
    Future<PhaseFigures> backPhase = stage.start(() -> driver.phase(phase));
    long takenBack = awaitConnected(second, listening + phase.toNanos());
    PhaseFigures back = Stage.join(backPhase);
    return new Measured(
        before,
        down,
        restarting,
        back,
        seconds(listening - restart),
        takenBack < 0 ? -1 : seconds(takenBack - listening));
  }

  private static FaultReport report(FaultReport report, String load, FaultsOptions o, Measured m) {
    report
        .row(load, "before", "2 instances", m.before())
        .row(load, "down", "instance 2 killed (kill -9)", m.down())
        .row(load, "restarting", "instance 2 started again, until it listens", m.restarting())
        .row(load, "back", "instance 2 listens again", m.back())
        .note(
            String.format(
                Locale.ROOT,
                "instance 2 listened again %.1f s after its restart began",
                m.restartSeconds()))
        .note(
            m.takenBackSeconds() < 0
                ? "the gateway did not connect to instance 2 again within the phase"
                : String.format(
                    Locale.ROOT,
                    "the gateway connected to instance 2 again %.2f s after it listened",
                    m.takenBackSeconds()));
    String inFlight =
        String.format(
            Locale.ROOT,
            "only operations in flight at the kill fail (at most %d, one per user): %d failed"
                + " until it listened again; after that (target 0): %d",
            o.users(),
            m.down().errors() + m.restarting().errors(),
            m.back().errors());
    return report
        .target(
            inFlight, FaultReport.killMet(o.users(), List.of(m.down(), m.restarting()), m.back()))
        .target(
            "instance taken back within 5 s of listening again",
            m.takenBackSeconds() >= 0 && m.takenBackSeconds() <= 5);
  }

  private static Void startAgain(ModuleInstance instance) throws Exception {
    instance.start();
    return null;
  }

  /**
   * @return when the gateway was first seen connected to the instance, or -1 if not by {@code
   *     deadline} ({@link System#nanoTime()})
   */
  private static long awaitConnected(ModuleInstance instance, long deadline)
      throws InterruptedException {
    while (System.nanoTime() < deadline) {
      if (instance.connected()) {
        return System.nanoTime();
      }
      TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
    }
    return -1;
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
