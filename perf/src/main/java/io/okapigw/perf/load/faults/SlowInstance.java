package io.okapigw.perf.load.faults;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.perf.kit.launch.ModuleInstance;
import io.okapigw.perf.load.BarcodeRows;
import io.okapigw.perf.load.LoadDriver;
import io.okapigw.perf.load.PhaseFigures;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code slow}: mod-users, which every check-out calls, as three instances, each a JVM of its own
 * ({@link ModuleInstance}), in the gateway's discovery in place of the library's own. Under the
 * check-out workload: a phase with three instances that answer at once; a phase with the third
 * replaced by one that answers every call {@code latency} late; a phase with the fast one back.
 * Counts the calls the slow instance served.
 */
final class SlowInstance {

  private SlowInstance() {}

  static FaultReport run(Stage stage, String gatewayUrl) throws Exception {
    FaultsOptions o = stage.options;
    Library library = stage.library(gatewayUrl);
    ModuleInstance first = stage.usersInstance("mod-users-1", 0, Duration.ZERO);
    ModuleInstance second = stage.usersInstance("mod-users-2", 20, Duration.ZERO);
    ModuleInstance third = stage.usersInstance("mod-users-3", 50, Duration.ZERO);
    ModuleInstance slow = stage.usersInstance("mod-users-slow", 70, o.latency());
    List<ModuleInstance> fast = List.of(first, second, third);
    List<ModuleInstance> withSlow = List.of(first, second, slow);
    String srvcId = stage.useUsersInstances(gatewayUrl, fast);
    LoadDriver driver =
        stage.driver(
            gatewayUrl, DemoOptions.TENANT, o.users(), o.warmup(), BarcodeRows.of(library.data()));
    PhaseFigures before = stage.join(() -> driver.phase(o.phase()));
    stage.useUsersInstances(gatewayUrl, withSlow);
    long slowBefore = slow.served();
    PhaseFigures slowPhase = stage.join(() -> driver.phase(o.phase()));
    long slowServed = slow.served() - slowBefore;
    String learned = stage.discovery(gatewayUrl).learned(srvcId, srvcId + "-3").encode();
    stage.useUsersInstances(gatewayUrl, fast);
    PhaseFigures after = stage.join(() -> driver.phase(o.phase()));
    stage.join(driver::finish);
    String load = DemoOptions.TENANT + ", " + o.users() + " users";
    String slowly = o.latency().toMillis() + " ms late";
    double ratio = slowPhase.both().rps() / before.both().rps();
    return new FaultReport(
            "our gateway: one of three instances of " + srvcId + " answering " + slowly)
        .row(load, "before", "3 instances answering at once", before)
        .row(load, "slow", "instance 3 replaced by one answering " + slowly, slowPhase)
        .row(load, "after", "the fast instance 3 back", after)
        .note("calls the slow instance served in its phase: " + slowServed)
        .note("what the gateway had learned of the slow instance at its phase's end: " + learned)
        .target(
            String.format(
                Locale.ROOT,
                "throughput with the slow instance at least 80 %% of before's: %.0f %%",
                ratio * 100),
            ratio >= 0.8);
  }
}
