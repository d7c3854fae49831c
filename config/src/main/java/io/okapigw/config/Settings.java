package io.okapigw.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The setting texts a program was started with: {@code --key value} or {@code --key=value} flags
 * (one dash works too) and the keys of a {@code -conf} JSON file; flags win. Values are read
 * through their {@link Setting}, so every program reads durations, sizes and booleans by the same
 * rules ({@link Values}) and every error names the key.
 */
public final class Settings {

  /** The rules, for a program's {@code help}. */
  public static final String RULES =
      """
      settings: --key value, --key=value, or keys of a -conf FILE JSON object; flags win.
      Durations need a unit (500ms, 30s, 3m, 1h, 1d; 0 alone needs none); sizes are bytes or
      KB, MB, GB (1KB = 1KiB = 1024 bytes); booleans true/false, yes/no, on/off (a boolean flag
      alone means true); lists are separated by commas (1,8,32).
      """;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, List<String>> values;

  private Settings(Map<String, List<String>> values) {
    this.values = values;
  }

  /**
   * @param values key to text
   * @return those settings
   */
  public static Settings of(Map<String, String> values) {
    Map<String, List<String>> copy = new LinkedHashMap<>();
    values.forEach((k, v) -> copy.put(k, List.of(v)));
    return new Settings(copy);
  }

  /**
   * Parses command-line arguments (after the command word). A flag given twice keeps its last
   * value, or all for a {@linkplain Setting#repeatable() repeatable} setting; a flag replaces the
   * conf file's value of its key.
   *
   * @throws IllegalArgumentException for a flag without a value, a stray argument, an unreadable or
   *     non-JSON conf
   */
  public static Settings fromArgs(List<String> args) {
    return fromArgs(args, Set.of());
  }

  /**
   * As {@link #fromArgs(List)}; a flag of {@code booleans} without a value (last, or followed by
   * another flag) means {@code true}.
   */
  static Settings fromArgs(List<String> args, Set<String> booleans) {
    Map<String, List<String>> flags = new LinkedHashMap<>();
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
      } else if (booleans.contains(key)
          && (i + 1 == args.size() || args.get(i + 1).startsWith("-"))) {
        value = "true";
      } else if (i + 1 < args.size()) {
        value = args.get(++i);
      } else {
        throw new IllegalArgumentException(key + " needs a value: --" + key + " VALUE");
      }
      if (key.equals("conf")) {
        conf = value;
      } else {
        flags.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
      }
    }
    Map<String, List<String>> merged =
        conf == null ? new LinkedHashMap<>() : readConf(Path.of(conf));
    merged.putAll(flags);
    return new Settings(merged);
  }

  /** A JSON object's keys; an array gives a repeatable setting its values. */
  private static Map<String, List<String>> readConf(Path file) {
    JsonNode json;
    try {
      json = JSON.readTree(Files.readString(file));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "conf: " + file + " is not a JSON object: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException("conf: cannot read " + file + ": " + e.getMessage());
    }
    if (json == null || !json.isObject()) {
      throw new IllegalArgumentException("conf: " + file + " is not a JSON object");
    }
    Map<String, List<String>> values = new LinkedHashMap<>();
    json.fields()
        .forEachRemaining(
            e -> {
              JsonNode node = e.getValue();
              List<String> texts = new ArrayList<>();
              (node.isArray() ? node : List.of(node)).forEach(n -> texts.add(text(e.getKey(), n)));
              values.put(e.getKey(), texts);
            });
    return values;
  }

  private static String text(String key, JsonNode node) {
    if (!node.isValueNode() || node.isNull()) {
      throw new IllegalArgumentException(
          key + " must be a string, number or boolean, was '" + node + "'");
    }
    return node.asText();
  }

  /**
   * @throws IllegalArgumentException naming the first key not in {@code known}, listing the known
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
    Map<String, List<String>> rest = new LinkedHashMap<>(values);
    rest.keySet().removeAll(keys);
    return new Settings(rest);
  }

  /**
   * @return the setting's value: its last text, read and checked; its default when not given
   * @throws IllegalArgumentException {@code <key> must be ..., was '<text>'}
   */
  public <T> T get(Setting<T> setting) {
    List<String> texts = values.get(setting.key());
    return texts == null ? setting.defaultValue() : setting.parse(texts.get(texts.size() - 1));
  }

  /**
   * @return whether the setting is given, as a flag or in the conf file
   */
  public boolean has(Setting<?> setting) {
    return values.containsKey(setting.key());
  }

  /**
   * @return every value given for a repeatable setting, in order; empty when none
   * @throws IllegalArgumentException {@code <key> must be ..., was '<text>'}
   */
  public <T> List<T> getAll(Setting<T> setting) {
    return values.getOrDefault(setting.key(), List.of()).stream().map(setting::parse).toList();
  }
}
