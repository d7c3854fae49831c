package io.okapigw.perf.kit.launch;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The settings of a benchmark that starts the gateway and the authtoken module in JVMs of their own
 * ({@code fullfake}, {@code parallel-auth}): which jars, the gateway's heap, or everything in this
 * JVM.
 */
public final class LaunchSettings {

  /** Where the gateway's fat jar is by default (relative to the project root). */
  public static final String DEFAULT_GATEWAY_JAR = "okapi-core/target/okapi-core-fat.jar";

  /** Where the authtoken module's fat jar is by default. */
  public static final String DEFAULT_AUTHTOKEN_JAR =
      "authtoken-module/target/authtoken-module-fat.jar";

  private static final Pattern HEAP = Pattern.compile("\\d+[kKmMgG]");

  public static final Setting<String> GATEWAY_HEAP =
      Setting.text("gateway-heap", "256m", "HEAP")
          .check(s -> HEAP.matcher(s).matches(), "a JVM heap size such as 256m or 1g")
          .about("each gateway JVM's `-Xmx`, in the JVM's own notation");

  public static final Setting<Boolean> IN_PROCESS =
      Setting.bool("in-process", false)
          .about("run every part in this JVM (what the tests do) instead of a JVM each");

  public static final Setting<String> GATEWAY_JAR =
      jar("gateway-jar", DEFAULT_GATEWAY_JAR).about("the gateway's fat jar");

  public static final Setting<String> AUTHTOKEN_JAR =
      jar("authtoken-jar", DEFAULT_AUTHTOKEN_JAR).about("the authtoken module's fat jar");

  /** The four, in documentation order. */
  public static final SettingsSpec SPEC =
      SettingsSpec.of(GATEWAY_HEAP, IN_PROCESS, GATEWAY_JAR, AUTHTOKEN_JAR);

  private LaunchSettings() {}

  /**
   * How a benchmark starts its parts.
   *
   * @param gatewayHeap each gateway JVM's {@code -Xmx}
   * @param inProcess run everything in this JVM (tests) instead of a JVM each
   * @param jars the gateway and authtoken fat jars (separate processes only)
   */
  public record Launch(String gatewayHeap, boolean inProcess, Launcher.Jars jars) {}

  /**
   * @return the launch settings of {@code settings}
   * @throws IllegalArgumentException naming the setting of a missing jar
   */
  public static Launch from(Settings settings) {
    return new Launch(settings.get(GATEWAY_HEAP), settings.get(IN_PROCESS), jars(settings));
  }

  /**
   * @return the two jars; each must exist unless {@code in-process}
   * @throws IllegalArgumentException naming the setting of a missing jar
   */
  public static Launcher.Jars jars(Settings settings) {
    boolean needed = !settings.get(IN_PROCESS);
    return new Launcher.Jars(
        existing(settings, GATEWAY_JAR, needed), existing(settings, AUTHTOKEN_JAR, needed));
  }

  private static Path existing(Settings settings, Setting<String> setting, boolean needed) {
    Path jar = Path.of(settings.get(setting));
    if (needed && !Files.isRegularFile(jar)) {
      throw new IllegalArgumentException(
          setting.key()
              + ": "
              + jar.toAbsolutePath()
              + " is missing; run from the project root or build it: mvn -q -B -o -pl"
              + " okapi-core,authtoken-module package -DskipTests");
    }
    return jar;
  }

  private static Setting<String> jar(String key, String defaultValue) {
    return Setting.text(key, defaultValue, "FILE").check(s -> !s.isBlank(), "a file path");
  }
}
