package io.okapigw.folio.containers;

import io.okapigw.config.Settings;
import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.data.CirculationData;
import java.time.Duration;
import java.util.Set;

/**
 * What {@code modules} runs with.
 *
 * @param host address the modules and the manifest listen on (default 0.0.0.0)
 * @param port the manifest's port (default 9300); the modules listen on {@code port + 1}, {@code
 *     port + 2}, ... (9 of them)
 * @param advertiseHost host name the gateway reaches the modules at (default localhost), e.g. the
 *     container's name
 * @param data the library to generate (seed 42, 1000 patrons, 1000 items by default, as the demo
 *     and the load driver)
 * @param callTimeout how long a module waits for another module's answer (default 10s)
 */
record ModulesOptions(
    String host,
    int port,
    String advertiseHost,
    CirculationData.Options data,
    Duration callTimeout) {

  static final Set<String> KEYS =
      Set.of("host", "port", "advertise-host", "seed", "patrons", "items", "call-timeout");

  /**
   * @throws IllegalArgumentException naming a bad setting
   */
  static ModulesOptions from(Settings settings) {
    settings.checkKnown(KEYS);
    CirculationData.Options defaults = CirculationData.Options.defaults();
    return new ModulesOptions(
        settings.string("host", "0.0.0.0"),
        settings.integer("port", 9300, 1, 65_000),
        settings.string("advertise-host", "localhost"),
        new CirculationData.Options(
            Long.parseLong(settings.string("seed", String.valueOf(defaults.seed()))),
            settings.integer("patrons", defaults.patrons(), 1, CirculationData.Options.MAX),
            settings.integer("items", defaults.items(), 1, CirculationData.Options.MAX)),
        settings.duration("call-timeout", CirculationModules.DEFAULT_CALL_TIMEOUT));
  }

  /**
   * @return the base URL of the module listening on {@code port}
   */
  String url(int modulePort) {
    return "http://" + advertiseHost + ":" + modulePort;
  }
}
