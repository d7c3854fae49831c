package io.okapigw.perf.fullfake;

import io.okapigw.config.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Flag readers the benchmark commands share; every error names the flag. */
public final class BenchFlags {

  /** Where the gateway's fat jar is by default (relative to the project root). */
  public static final String DEFAULT_GATEWAY_JAR = "okapi-core/target/okapi-core-fat.jar";

  /** Where the authtoken module's fat jar is by default. */
  public static final String DEFAULT_AUTHTOKEN_JAR =
      "authtoken-module/target/authtoken-module-fat.jar";

  private static final Pattern HEAP = Pattern.compile("\\d+[kKmMgG]");

  private BenchFlags() {}

  /**
   * @return a comma-separated list of whole numbers, each in {@code [min, max]}
   */
  public static List<Integer> integers(
      Settings settings, String key, String defaultValue, int min, int max) {
    List<Integer> values = new ArrayList<>();
    for (String item : items(settings, key, defaultValue)) {
      values.add(Settings.of(Map.of(key, item)).integer(key, 0, min, max));
    }
    return List.copyOf(values);
  }

  /**
   * @return a comma-separated list of sizes ({@link ByteSize}), each at most {@code max}
   */
  public static List<Long> sizes(Settings settings, String key, String defaultValue, long max) {
    List<Long> values = new ArrayList<>();
    for (String item : items(settings, key, defaultValue)) {
      long size = ByteSize.parse(key, item);
      if (size > max) {
        throw new IllegalArgumentException(
            key + " must be at most " + ByteSize.format(max) + ", was " + item);
      }
      values.add(size);
    }
    return List.copyOf(values);
  }

  /**
   * @return a JVM heap size like {@code 256m} (for {@code -Xmx})
   */
  public static String heap(Settings settings, String key, String defaultValue) {
    String value = settings.string(key, defaultValue).trim();
    if (!HEAP.matcher(value).matches()) {
      throw new IllegalArgumentException(
          key + " must be a heap size like 256m or 1g, was '" + value + "'");
    }
    return value;
  }

  /**
   * @param needed whether the jar will be used (in-process runs need none)
   * @return the path of an existing jar
   */
  public static Path jar(Settings settings, String key, String defaultValue, boolean needed) {
    Path jar = Path.of(settings.string(key, defaultValue));
    if (needed && !Files.isRegularFile(jar)) {
      throw new IllegalArgumentException(
          key
              + ": "
              + jar.toAbsolutePath()
              + " is missing; run "
              + "from the project root or build it: mvn -q -B -o -pl okapi-core,authtoken-module "
              + "package -DskipTests");
    }
    return jar;
  }

  private static List<String> items(Settings settings, String key, String defaultValue) {
    List<String> items = new ArrayList<>();
    for (String item : settings.string(key, defaultValue).split(",")) {
      if (!item.isBlank()) {
        items.add(item.trim());
      }
    }
    if (items.isEmpty()) {
      throw new IllegalArgumentException(key + " must list at least one value");
    }
    return items;
  }
}
