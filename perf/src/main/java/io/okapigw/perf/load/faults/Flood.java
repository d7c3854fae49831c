package io.okapigw.perf.load.faults;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.folio.ModuleDeployment;
import io.okapigw.folio.register.GatewayRegistration;
import io.okapigw.perf.load.BarcodeRow;
import io.okapigw.perf.load.BarcodeRows;
import io.okapigw.perf.load.LoadDriver;
import io.okapigw.perf.load.PhaseFigures;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code flood}: one gateway of ours (with {@code gateway-args}: a tenant limit, say), the library
 * registered for tenant {@code diku} (auth on) and for tenant {@code flood} (the same modules, no
 * auth module), each working on its own half of the items. {@code diku}'s check-out workload alone;
 * then beside {@code flood-factor} times as many users of {@code flood}; then alone again.
 */
final class Flood {

  static final String FLOOD_TENANT = "flood";

  private Flood() {}

  static FaultReport run(Stage stage) throws Exception {
    FaultsOptions o = stage.options;
    try (StandaloneGateway gateway = StandaloneGateway.start(o.gatewayJar(), o.gatewayArgs())) {
      String url = gateway.url();
      Library library = stage.library(url);
      registerFloodTenant(stage, url, library);
      List<BarcodeRow> rows = BarcodeRows.of(library.data());
      int half = rows.size() / 2;
      LoadDriver measured =
          stage.driver(url, DemoOptions.TENANT, o.users(), o.warmup(), rows.subList(0, half));
      int floodUsers = o.users() * o.floodFactor();
      LoadDriver flood =
          stage.driver(
              url, FLOOD_TENANT, floodUsers, Duration.ZERO, rows.subList(half, rows.size()));
      PhaseFigures baseline = stage.join(() -> measured.phase(o.phase()));
      Future<PhaseFigures> floodPhase = stage.start(() -> flood.phase(o.phase()));
      PhaseFigures during = stage.join(() -> measured.phase(o.phase()));
      PhaseFigures flooding = Stage.join(floodPhase);
      PhaseFigures after = stage.join(() -> measured.phase(o.phase()));
      stage.join(measured::finish);
      stage.join(flood::finish);
      return report(o, List.of(baseline, during, flooding, after));
    }
  }

  /** The same modules for tenant {@value #FLOOD_TENANT}, without the authtoken module. */
  private static void registerFloodTenant(Stage stage, String url, Library library) {
    List<GatewayRegistration.Module> modules =
        library.modules().deployments().stream().map(ModuleDeployment::module).toList();
    stage.join(
        () -> {
          GatewayRegistration registration =
              GatewayRegistration.create(stage.vertx, url, Library.superAdmin());
          return registration.register(FLOOD_TENANT, modules).eventually(registration::close);
        });
  }

  /**
   * @param phases baseline, diku during the flood, the flood, after
   */
  private static FaultReport report(FaultsOptions o, List<PhaseFigures> phases) {
    String load = DemoOptions.TENANT + ", " + o.users() + " users";
    PhaseFigures baseline = phases.get(0);
    PhaseFigures during = phases.get(1);
    double ratio = FaultReport.p99Ratio(baseline, during);
    String passed = o.gatewayArgs().isEmpty() ? "none" : String.join(" ", o.gatewayArgs());
    return new FaultReport(
            "a " + o.floodFactor() + "x flood from tenant " + FLOOD_TENANT + " beside " + load)
        .row(load, "baseline", "alone", baseline)
        .row(load, "flood", FLOOD_TENANT + " floods", during)
        .row(
            FLOOD_TENANT + ", " + o.users() * o.floodFactor() + " users",
            "flood",
            "the flood",
            phases.get(2))
        .row(load, "after", "alone again", phases.get(3))
        .note("gateway settings passed through: " + passed)
        .target(
            String.format(
                Locale.ROOT,
                "%s's check-out p99 during the flood within 1.5x its baseline: %.2fx",
                DemoOptions.TENANT,
                ratio),
            ratio <= 1.5)
        .target(
            DemoOptions.TENANT + " without errors during the flood: " + during.errors(),
            during.errors() == 0);
  }
}
