package io.okapigw.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The setting texts a program was started with, from three sources, the first that gives a setting
 * winning: {@code --key value} or {@code --key=value} flags (one dash works too), {@code
 * -Dkey=value} system properties (only for keys that are a setting's {@linkplain Setting#alias
 * alias}: Okapi's keys for the gateway), and the keys of a {@code -conf} JSON file. Within a source
 * a setting's own key wins over its aliases. Values are read through their {@link Setting}, so
 * every program reads durations, sizes and booleans by the same rules ({@link Values}) and every
 * error names the key.
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

  /** Where a text came from, in the order the sources win. */
  enum Source {
    FLAG,
    PROPERTY,
    CONF;

    /** How a key given in this source is written: {@code --port}, {@code -Dport}, ... */
    String describe(String key) {
      return switch (this) {
        case FLAG -> "--" + key;
        case PROPERTY -> "-D" + key;
        case CONF -> key + " (-conf)";
      };
    }
  }

  private final Map<Source, Map<String, List<String>>> sources;
  private final List<String> notes;

  /**
   * The conf file's keys whose value is an object or holds one (their texts are its JSON): given,
   * only a key no setting reads may have one (a refused key's value is looked at).
   */
  private final Set<String> structured;

  private Settings(
      Map<Source, Map<String, List<String>>> sources, List<String> notes, Set<String> structured) {
    this.sources = new EnumMap<>(Source.class);
    sources.forEach((source, values) -> this.sources.put(source, new LinkedHashMap<>(values)));
    this.notes = List.copyOf(notes);
    this.structured = Set.copyOf(structured);
  }

  private static Settings of(
      Map<String, List<String>> flags,
      Map<String, List<String>> properties,
      Map<String, List<String>> conf) {
    Map<Source, Map<String, List<String>>> all = new EnumMap<>(Source.class);
    all.put(Source.FLAG, flags);
    all.put(Source.PROPERTY, properties);
    Map<String, List<String>> texts = new LinkedHashMap<>();
    Set<String> structured = new LinkedHashSet<>();
    conf.forEach(
        (key, values) -> {
          texts.put(key, values);
          if (values.stream().anyMatch(v -> v.startsWith(STRUCTURED))) {
            structured.add(key);
            texts.put(key, values.stream().map(v -> v.replace(STRUCTURED, "")).toList());
          }
        });
    all.put(Source.CONF, texts);
    return new Settings(all, List.of(), structured);
  }

  /** Marks a conf value that is not a string, number or boolean while the file is read. */
  private static final String STRUCTURED = "\u0000";

  /**
   * @param values key to text, as flags
   * @return those settings
   */
  public static Settings of(Map<String, String> values) {
    Map<String, List<String>> copy = new LinkedHashMap<>();
    values.forEach((k, v) -> copy.put(k, List.of(v)));
    return of(copy, Map.of(), Map.of());
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
    return of(flags, Map.of(), conf == null ? Map.of() : readConf(Path.of(conf)));
  }

  /**
   * @param properties {@code -D} system properties: only {@code keys} with a non-empty value are
   *     taken (Okapi's rule: an empty property is not given)
   * @return these settings with those properties as their second source
   */
  Settings withProperties(Map<String, String> properties, Set<String> keys) {
    Map<String, List<String>> taken = new LinkedHashMap<>();
    keys.forEach(
        key -> {
          String value = properties.get(key);
          if (value != null && !value.isEmpty()) {
            taken.put(key, List.of(value));
          }
        });
    Map<Source, Map<String, List<String>>> all = new EnumMap<>(sources);
    all.put(Source.PROPERTY, taken);
    return new Settings(all, notes, structured);
  }

  /**
   * @return these settings with {@code more} notes after their own
   */
  Settings withNotes(List<String> more) {
    List<String> all = new ArrayList<>(notes);
    all.addAll(more);
    return new Settings(sources, all, structured);
  }

  /**
   * A JSON object's keys; an array gives a repeatable setting its values. A value that is an object
   * or holds one is kept as its JSON, marked, for a key no setting reads (a setting refuses it).
   */
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
              if (isPlain(node) || node.isArray() && allPlain(node)) {
                (node.isArray() ? node : List.of(node))
                    .forEach(n -> texts.add(text(e.getKey(), n)));
              } else {
                texts.add(STRUCTURED + node);
              }
              values.put(e.getKey(), texts);
            });
    return values;
  }

  private static boolean isPlain(JsonNode node) {
    return node.isValueNode();
  }

  private static boolean allPlain(JsonNode array) {
    for (JsonNode element : array) {
      if (!isPlain(element)) {
        return false;
      }
    }
    return true;
  }

  private static String text(String key, JsonNode node) {
    if (node.isNull()) {
      throw new IllegalArgumentException(
          key + " must be a string, number or boolean, was '" + node + "'");
    }
    return node.asText();
  }

  /**
   * @throws IllegalArgumentException naming the first key not in {@code known}, listing the known
   */
  public void checkKnown(Set<String> known) {
    checkKnown(known, known);
  }

  /**
   * As {@link #checkKnown(Set)} with the keys of {@code spec}: its settings' own keys and aliases,
   * and the keys it refuses or notes (refused keys are checked when the spec reads them). The
   * message lists the settings' keys and aliases only: a refused or noted key (Okapi's {@code
   * WARNING} line of a generated conf file) is no setting to suggest.
   */
  public void checkKnown(SettingsSpec spec) {
    Set<String> settings = new LinkedHashSet<>(spec.keys());
    settings.addAll(spec.aliasKeys());
    Set<String> known = new LinkedHashSet<>(settings);
    known.addAll(spec.otherKeys());
    checkKnown(known, settings);
  }

  private void checkKnown(Set<String> known, Set<String> listed) {
    for (String key : givenKeys()) {
      if (!known.contains(key)) {
        throw new IllegalArgumentException(
            "unknown setting '"
                + key
                + "'; known settings: "
                + String.join(", ", listed.stream().sorted().toList()));
      }
    }
  }

  /** The keys given as flags or in the conf file, in order. */
  Set<String> givenKeys() {
    Set<String> keys = new LinkedHashSet<>(sources.get(Source.FLAG).keySet());
    keys.addAll(sources.get(Source.CONF).keySet());
    return keys;
  }

  /**
   * @return these settings without {@code keys} (those another component reads)
   */
  public Settings except(Set<String> keys) {
    Map<Source, Map<String, List<String>>> rest = new EnumMap<>(Source.class);
    sources.forEach(
        (source, values) -> {
          Map<String, List<String>> kept = new LinkedHashMap<>(values);
          kept.keySet().removeAll(keys);
          rest.put(source, kept);
        });
    return new Settings(rest, notes, structured);
  }

  /**
   * @return these settings without those of {@code spec}, under their keys or aliases
   */
  public Settings except(SettingsSpec spec) {
    Set<String> keys = new LinkedHashSet<>(spec.keys());
    keys.addAll(spec.aliasKeys());
    return except(keys);
  }

  /**
   * @return the setting's value: its last text in the first source that gives it, read and checked;
   *     its default when not given
   * @throws IllegalArgumentException {@code <key> must be ..., was '<text>'}
   */
  public <T> T get(Setting<T> setting) {
    Given given = given(setting).stream().findFirst().orElse(null);
    if (given == null) {
      return setting.defaultValue();
    }
    return setting.parse(
        given.key(), setting.acceptsStructured() ? given.last() : plain(given).last());
  }

  /**
   * @return the given texts, if they are plain values
   * @throws IllegalArgumentException {@code <key> must be a string, number or boolean, was ...}
   */
  private Given plain(Given given) {
    if (given.source() == Source.CONF && structured.contains(given.key())) {
      throw new IllegalArgumentException(
          given.key() + " must be a string, number or boolean, was '" + given.last() + "'");
    }
    return given;
  }

  /**
   * @return the last text of {@code key} as a flag, else in the conf file (a value that is an
   *     object or holds one as its JSON, without spaces); null if it is given as neither
   */
  String text(String key) {
    for (Source source : List.of(Source.FLAG, Source.CONF)) {
      List<String> texts = sources.get(source).get(key);
      if (texts != null) {
        return texts.get(texts.size() - 1);
      }
    }
    return null;
  }

  /**
   * @return whether the setting is given, under its key or an alias, in any source
   */
  public boolean has(Setting<?> setting) {
    return !given(setting).isEmpty();
  }

  /**
   * @return every value given for a repeatable setting, in order, from the first source that gives
   *     it; empty when none
   * @throws IllegalArgumentException {@code <key> must be ..., was '<text>'}
   */
  public <T> List<T> getAll(Setting<T> setting) {
    return given(setting).stream()
        .findFirst()
        .map(g -> plain(g).texts().stream().map(t -> setting.parse(g.key(), t)).toList())
        .orElse(List.of());
  }

  /**
   * @return what a program should log at start about how it read its settings: keys it accepted
   *     without using them, and values that lost to another key of the same setting
   */
  public List<String> notes() {
    return notes;
  }

  /** A setting's texts under one key in one source. */
  record Given(Source source, String key, List<String> texts) {
    String last() {
      return texts.get(texts.size() - 1);
    }

    String describe() {
      return source.describe(key) + "=" + last();
    }
  }

  /** Every key of the setting given in any source, the winner first. */
  List<Given> given(Setting<?> setting) {
    List<Given> all = new ArrayList<>();
    for (Source source : Source.values()) {
      for (String key : setting.lookupOrder()) {
        List<String> texts = sources.get(source).get(key);
        if (texts != null) {
          all.add(new Given(source, key, texts));
        }
      }
    }
    return all;
  }
}
