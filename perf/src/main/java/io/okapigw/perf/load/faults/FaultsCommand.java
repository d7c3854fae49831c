package io.okapigw.perf.load.faults;

import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.perf.kit.process.OwnJvm;
import io.okapigw.testsupport.process.StandaloneGateway;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code faults}: one fault scenario under the check-out/check-in workload, on 127.0.0.1, bounded
 * in time and operations; prints its table (before, during, after: ops/s, p50/p99, errors by kind)
 * and its targets. Exit code 0 when it ran (targets missed included; a skipped scenario too, with
 * the reason), 1 if it could not run, 2 for a bad flag.
 */
public final class FaultsCommand {

  private static final Logger log = LoggerFactory.getLogger(FaultsCommand.class);
  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");

  /** The settings of {@code faults}. */
  public static final SettingsSpec SPEC = FaultsOptions.SPEC;

  private FaultsCommand() {}

  /**
   * Runs the scenario and exits the process.
   *
   * @param settings read by {@link #SPEC}
   * @throws IllegalArgumentException naming a bad setting, before anything starts
   */
  public static void run(Settings settings) {
    FaultsOptions options = FaultsOptions.from(settings);
    String skipped = skipReason(options);
    if (skipped != null) {
      out.info(
          "faults --scenario {} skipped: {}",
          options.scenario().name().toLowerCase(Locale.ROOT).replace('_', '-'),
          skipped);
      System.exit(0);
    }
    int status;
    String started = now();
    double loadBefore = loadAverage();
    try (Stage stage = new Stage(options)) {
      log.info("logs of the started processes in {}", stage.dir);
      FaultReport report = run(stage, options);
      out.info(
          "\n{}\n{}",
          report.text(),
          String.format(
              Locale.ROOT,
              "(%s to %s UTC, %d users, phases of %d s after a %d s warm-up, load average %.2f"
                  + " before, %.2f after)",
              started,
              now(),
              options.users(),
              options.phase().toSeconds(),
              options.warmup().toSeconds(),
              loadBefore,
              loadAverage()));
      status = 0;
    } catch (Exception e) {
      log.error("faults --scenario {} failed: {}", options.scenario(), e.toString());
      status = 1;
    }
    System.exit(status);
  }

  private static FaultReport run(Stage stage, FaultsOptions o) throws Exception {
    return switch (o.scenario()) {
      case KILL -> onOurGateway(o, url -> InstanceKill.run(stage, url, "our gateway"));
      case OKAPI_KILL ->
          InstanceKill.run(stage, startOkapi(stage, o), "Okapi (" + o.okapiJar() + ")");
      case ROLLING_RESTART -> RollingRestart.run(stage);
      case FLOOD -> Flood.run(stage);
      case HANG -> onOurGateway(o, url -> InstanceHang.run(stage, url));
      case SLOW -> onOurGateway(o, url -> SlowInstance.run(stage, url));
      case AUTH_MODULE -> AuthModuleDown.run(stage);
      case DATABASE -> DatabaseAway.run(stage);
      case REVOKE_NODE_DOWN -> RevocationNodeDown.run(stage);
      case NODE_PAUSE -> NodePause.run(stage);
    };
  }

  /** A scenario on one gateway of ours, started for it with {@code gateway-args}. */
  private interface OnGateway {
    FaultReport run(String gatewayUrl) throws Exception;
  }

  private static FaultReport onOurGateway(FaultsOptions o, OnGateway scenario) throws Exception {
    try (StandaloneGateway gateway = StandaloneGateway.start(o.gatewayJar(), o.gatewayArgs())) {
      return scenario.run(gateway.url());
    }
  }

  /**
   * @return why the scenario cannot run here, or {@code null}
   */
  static String skipReason(FaultsOptions o) {
    if (o.scenario() == FaultsOptions.Scenario.DATABASE) {
      return DatabaseAway.skipReason();
    }
    if (o.scenario() != FaultsOptions.Scenario.OKAPI_KILL) {
      return null;
    }
    if (o.okapiJar() == null) {
      return "no --okapi-jar given (Okapi's okapi-core-fat.jar; see docs/benchmarks.md, Building"
          + " Okapi 6.1.5)";
    }
    return Files.isRegularFile(o.okapiJar()) ? null : "no such file: " + o.okapiJar();
  }

  /** Okapi in memory ({@code dev}), at WARN (it logs every proxied request at INFO). */
  private static String startOkapi(Stage stage, FaultsOptions o) throws Exception {
    int port = o.basePort() + 41;
    String url = "http://127.0.0.1:" + port;
    Process okapi =
        stage.children.start(
            "okapi",
            List.of(
                OwnJvm.java().toString(),
                "-Xmx256m",
                "-Dloglevel=WARN",
                "-Dport=" + port,
                "-Dokapiurl=" + url,
                "-jar",
                o.okapiJar().toString(),
                "dev"));
    stage.children.awaitReady("okapi", okapi, url + "/_/version", java.time.Duration.ofSeconds(90));
    return url;
  }

  private static String now() {
    return ZonedDateTime.now(ZoneOffset.UTC)
        .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
