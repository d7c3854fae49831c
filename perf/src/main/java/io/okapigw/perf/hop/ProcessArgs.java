package io.okapigw.perf.hop;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.util.List;

/**
 * The settings of the processes {@code hop-compare} starts from its own classpath: the module and
 * the two bare relays.
 */
final class ProcessArgs {

  static final Setting<Integer> PORT =
      Setting.integer("port", 9401, 1, 65535).about("port on 127.0.0.1");

  static final Setting<Integer> MODULE_PORT =
      Setting.integer("module-port", 9401, 1, 65535).about("the module's port (relays)");

  static final Setting<Integer> INSTANCES =
      Setting.integer("instances", 2, 1, 16).about("event loops (verticles or Netty threads)");

  private static final SettingsSpec SPEC = SettingsSpec.of(PORT, MODULE_PORT, INSTANCES);

  private ProcessArgs() {}

  /**
   * @throws IllegalArgumentException naming a bad or unknown setting
   */
  static Settings read(String[] args) {
    return SPEC.read(List.of(args));
  }
}
