package io.okapigw.config;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Flat {@code key -> value} settings from a {@code -conf} JSON file and {@code --key value} (or
 * {@code --key=value}) command-line flags; flags win. Every read names the key in its error, so a
 * bad setting stops the process with a message naming it.
 */
public final class Settings {

  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

  private final Map<String, String> values;

  private Settings(Map<String, String> values) {
    this.values = values;
  }

  public static Settings of(Map<String, String> values) {
    return new Settings(new LinkedHashMap<>(values));
  }

  /**
   * Parses command-line arguments (after the command word).
   *
   * @throws IllegalArgumentException for a flag without a value, an unreadable or non-JSON conf
   */
  public static Settings fromArgs(List<String> args) {
    Map<String, String> flags = new LinkedHashMap<>();
    String conf = null;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("-")) {
        throw new IllegalArgumentException("unexpected argument '" + arg + "'");
      }
      String key = arg.replaceFirst("^--?", "");
      String value;
      int eq = key.indexOf('=');
      if (eq >= 0) {
        value = key.substring(eq + 1);
        key = key.substring(0, eq);
      } else if (i + 1 < args.size()) {
        value = args.get(++i);
      } else {
        throw new IllegalArgumentException("setting " + arg + " needs a value");
      }
      if (key.equals("conf")) {
        conf = value;
      } else {
        flags.put(key, value);
      }
    }
    Map<String, String> merged = conf == null ? new LinkedHashMap<>() : readConf(Path.of(conf));
    merged.putAll(flags);
    return new Settings(merged);
  }

  private static Map<String, String> readConf(Path file) {
    try {
      JsonObject json = new JsonObject(Files.readString(file));
      Map<String, String> values = new LinkedHashMap<>();
      json.forEach(e -> values.put(e.getKey(), String.valueOf(e.getValue())));
      return values;
    } catch (IOException e) {
      throw new IllegalArgumentException("conf: cannot read " + file + ": " + e.getMessage());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "conf: " + file + " is not a JSON object: " + e.getMessage());
    }
  }

  /**
   * @throws IllegalArgumentException naming the first key not in {@code known}
   */
  public void checkKnown(Set<String> known) {
    for (String key : values.keySet()) {
      if (!known.contains(key)) {
        throw new IllegalArgumentException(
            "unknown setting '"
                + key
                + "'; known settings: "
                + String.join(", ", known.stream().sorted().toList()));
      }
    }
  }

  /**
   * @return these settings without {@code keys} (those another component reads)
   */
  public Settings except(Set<String> keys) {
    Map<String, String> rest = new LinkedHashMap<>(values);
    rest.keySet().removeAll(keys);
    return new Settings(rest);
  }

  public String string(String key, String defaultValue) {
    return values.getOrDefault(key, defaultValue);
  }

  public int integer(String key, int defaultValue, int min, int max) {
    String value = values.get(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      int n = Integer.parseInt(value.trim());
      if (n < min || n > max) {
        throw new IllegalArgumentException(
            key + " must be between " + min + " and " + max + ", was " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a whole number, was '" + value + "'");
    }
  }

  public boolean bool(String key, boolean defaultValue) {
    String value = values.get(key);
    if (value == null) {
      return defaultValue;
    }
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default ->
          throw new IllegalArgumentException(key + " must be true or false, was '" + value + "'");
    };
  }

  /** Reads {@code 500ms}, {@code 30s}, {@code 3m}, {@code 1h}, or a plain number of seconds. */
  public Duration duration(String key, Duration defaultValue) {
    String value = values.get(key);
    if (value == null) {
      return defaultValue;
    }
    Matcher m = DURATION.matcher(value.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          key + " must be a duration like 500ms, 30s, 3m or 1h, was '" + value + "'");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    return switch (unit) {
      case "ms" -> Duration.ofMillis(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofSeconds(n);
    };
  }

  /**
   * @return the raw values (for settings handed to another component)
   */
  public Map<String, String> asMap() {
    return Map.copyOf(values);
  }
}
