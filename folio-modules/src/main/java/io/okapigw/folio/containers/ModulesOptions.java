package io.okapigw.folio.containers;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.config.StartDeadline;
import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.data.CirculationData;
import java.time.Duration;

/**
 * What {@code modules} runs with: the values of the settings declared here ({@link #SPEC}, with
 * their defaults).
 *
 * @param host address the modules and the manifest listen on
 * @param port the manifest's port; the modules listen on {@code port + 1}, {@code port + 2}, ...
 * @param advertiseHost host name the gateway reaches the modules at, e.g. the container's name
 * @param data the library to generate (as the demo and the load driver by default)
 * @param callTimeout how long a module waits for another module's answer
 * @param latency how late every module answers (a slow instance, for fault scenarios)
 */
record ModulesOptions(
    String host,
    int port,
    String advertiseHost,
    CirculationData.Options data,
    Duration callTimeout,
    Duration latency) {

  static final Setting<String> HOST =
      Setting.text("host", "0.0.0.0", "HOST")
          .check(s -> !s.isBlank(), "a host name or address")
          .about("address every module and the manifest listen on");

  static final Setting<Integer> PORT =
      Setting.integer("port", 9300, 1, 65_000)
          .about(
              "the manifest's port; the modules listen on `port+1`, `port+2`, ... (one port per module)");

  static final Setting<String> ADVERTISE_HOST =
      Setting.text("advertise-host", "localhost", "HOST")
          .check(s -> !s.isBlank(), "a host name or address")
          .about("host name the gateways reach the modules at (in containers: the container's)");

  static final Setting<Integer> PATRONS =
      Setting.integer(
              "patrons", CirculationData.Options.DEFAULT_PATRONS, 1, CirculationData.Options.MAX)
          .about("patrons of the generated library");

  static final Setting<Integer> ITEMS =
      Setting.integer(
              "items", CirculationData.Options.DEFAULT_ITEMS, 1, CirculationData.Options.MAX)
          .about("items of the generated library");

  static final Setting<Integer> SEED =
      Setting.integer("seed", (int) CirculationData.Options.DEFAULT_SEED, 0, Integer.MAX_VALUE)
          .about(
              "random seed of the generated library: the same seed, patrons and items give the demo's barcodes");

  static final Setting<Duration> CALL_TIMEOUT =
      Setting.duration(
              "call-timeout",
              CirculationModules.DEFAULT_CALL_TIMEOUT,
              Duration.ofMillis(1),
              Duration.ofHours(1))
          .about("a module's wait for another module's answer (then 504)");

  static final Setting<Duration> LATENCY =
      Setting.duration("latency", Duration.ZERO, Duration.ZERO, Duration.ofMinutes(10))
          .about(
              "how late every module answers: a slow instance, for fault scenarios (`perf faults"
                  + " --scenario slow`); 0: at once");

  /** The settings of {@code modules}, in documentation order. */
  static final SettingsSpec SPEC =
      SettingsSpec.of(HOST, PORT, ADVERTISE_HOST, PATRONS, ITEMS, SEED, CALL_TIMEOUT, LATENCY)
          .and(StartDeadline.SETTINGS);

  /**
   * @param settings read by {@link #SPEC}
   * @throws IllegalArgumentException naming a bad setting
   */
  static ModulesOptions from(Settings settings) {
    return new ModulesOptions(
        settings.get(HOST),
        settings.get(PORT),
        settings.get(ADVERTISE_HOST),
        new CirculationData.Options(settings.get(SEED), settings.get(PATRONS), settings.get(ITEMS)),
        settings.get(CALL_TIMEOUT),
        settings.get(LATENCY));
  }

  /**
   * @return the base URL of the module listening on {@code port}
   */
  String url(int modulePort) {
    return "http://" + advertiseHost + ":" + modulePort;
  }
}
