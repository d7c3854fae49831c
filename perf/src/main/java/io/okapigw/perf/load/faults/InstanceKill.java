package io.okapigw.perf.load.faults;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
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

  /**
   * @param gatewayUrl the running gateway (ours or Okapi), nothing registered yet
   * @param gateway its name for the report
   */
  static FaultReport run(Stage stage, String gatewayUrl, String gateway) throws Exception {
    FaultsOptions o = stage.options;
    Library library = stage.library(gatewayUrl);
    ModuleInstance first = new ModuleInstance(stage.children, "mod-users-1", o.basePort());
    ModuleInstance second = new ModuleInstance(stage.children, "mod-users-2", o.basePort() + 20);
    first.start();
    second.start();
    String srvcId = library.modules().deployment("mod-users").id();
    new Discovery(gatewayUrl, stage.superAdminToken(gatewayUrl))
        .replace(srvcId, List.of(first.usersUrl(), second.usersUrl()));
    LoadDriver driver =
        stage.driver(
            gatewayUrl, DemoOptions.TENANT, o.users(), o.warmup(), BarcodeRows.of(library.data()));
    String load = DemoOptions.TENANT + ", " + o.users() + " users";
    PhaseFigures before = stage.join(() -> driver.phase(o.phase()));
    Future<PhaseFigures> downPhase = stage.start(() -> driver.phase(o.phase()));
    second.kill();
    PhaseFigures down = Stage.join(downPhase);
    long restart = System.nanoTime();
    Future<Void> started = stage.inThread("restart", () -> startAgain(second));
    PhaseFigures restarting =
        stage.join(() -> driver.phase(RESTART_TIMEOUT, started.otherwiseEmpty()));
    long listening = System.nanoTime();
    Stage.join(started);
    Future<PhaseFigures> backPhase = stage.start(() -> driver.phase(o.phase()));
    long takenBack = awaitConnected(second, listening + o.phase().toNanos());
    PhaseFigures back = Stage.join(backPhase);
    stage.join(driver::finish);
    return new FaultReport(
            gateway + ": kill -9 one of two instances of " + srvcId + ", then start it again")
        .row(load, "before", "2 instances", before)
        .row(load, "down", "instance 2 killed (kill -9)", down)
        .row(load, "restarting", "instance 2 started again, until it listens", restarting)
        .row(load, "back", "instance 2 listens again", back)
        .note(
            String.format(
                Locale.ROOT,
                "instance 2 listened again %.1f s after its restart began",
                seconds(listening - restart)))
        .note(
            takenBack < 0
                ? "the gateway did not connect to instance 2 again within the phase"
                : String.format(
                    Locale.ROOT,
                    "the gateway connected to instance 2 again %.2f s after it listened",
                    seconds(takenBack - listening)))
        .target(
            String.format(
                Locale.ROOT,
                "only operations in flight at the kill fail (at most %d, one per user): %d failed"
                    + " until it listened again; after that (target 0): %d",
                o.users(),
                down.errors() + restarting.errors(),
                back.errors()),
            FaultReport.killMet(o.users(), List.of(down, restarting), back))
        .target(
            "instance taken back within 5 s of listening again",
            takenBack >= 0 && seconds(takenBack - listening) <= 5);
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
