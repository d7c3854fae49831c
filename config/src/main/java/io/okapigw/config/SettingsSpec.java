package io.okapigw.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The settings of one program (or one command of it), in the order they are documented. It refuses
 * unknown keys, prints the {@code help} text and renders the settings table of the docs, all from
 * the same {@link Setting} declarations, so they cannot drift apart.
 *
 * <p>Besides its settings, a spec may know keys of another program's configuration that it does not
 * read (the gateway knows Okapi's): a {@linkplain #refuse refused} key stops the program with the
 * reason and what to use instead; a {@linkplain #note noted} key is accepted and reported in {@link
 * Settings#notes()}, never silently ignored.
 */
public final class SettingsSpec {

  private static final int WIDTH = 100;
  private static final String INDENT = "      ";

  /**
   * A key this spec does not read: refused (with the reason) or accepted and noted (why); a refused
   * one may be accepted and noted with one value that means nothing here ({@code harmless}, or
   * null).
   */
  private record Other(boolean refused, String reason, String harmless, String whyHarmless) {
    Other(boolean refused, String reason) {
      this(refused, reason, null, null);
    }

    /**
     * @return whether this value, as given, is refused
     */
    boolean refuses(String value) {
      return refused && (harmless == null || !harmless.equals(value.replaceAll("\\s", "")));
    }
  }

  private final List<Setting<?>> settings;
  private final Map<String, Other> others;

  private SettingsSpec(List<Setting<?>> settings, Map<String, Other> others) {
    this.settings = List.copyOf(settings);
    this.others = Collections.unmodifiableMap(new LinkedHashMap<>(others));
    Set<String> all = new LinkedHashSet<>(keys());
    all.addAll(aliasKeys());
    long aliases = settings.stream().mapToLong(st -> aliasesBesidesOwn(st).size()).sum();
    if (all.size() != settings.size() + aliases) {
      throw new IllegalArgumentException("a key is declared twice: " + settings);
    }
  }

  private static List<String> aliasesBesidesOwn(Setting<?> setting) {
    return setting.aliasKeys().stream().filter(k -> !k.equals(setting.key())).toList();
  }

  /**
   * @return the spec of these settings, in this order
   */
  public static SettingsSpec of(Setting<?>... settings) {
    return new SettingsSpec(List.of(settings), Map.of());
  }

  /**
   * @return these settings followed by {@code more}'s
   */
  public SettingsSpec and(SettingsSpec more) {
    List<Setting<?>> all = new ArrayList<>(settings);
    all.addAll(more.settings);
    Map<String, Other> allOthers = new LinkedHashMap<>(others);
    allOthers.putAll(more.others);
    return new SettingsSpec(all, allOthers);
  }

  /**
   * @return the settings of this spec that {@code other} does not declare
   */
  public SettingsSpec without(SettingsSpec other) {
    Set<String> keys = other.keys();
    return new SettingsSpec(
        settings.stream().filter(s -> !keys.contains(s.key())).toList(), Map.of());
  }

  /**
   * A key of another program's configuration that this one does not implement: given as a flag, a
   * {@code -D} system property or a {@code -conf} key, it stops the program with {@code key:
   * reason}. A key that is one of this spec's settings' keys is that setting's in the sources that
   * read it ({@code host} in {@code -conf} is the gateway's; {@code -Dhost} is Okapi's).
   *
   * @param reason why, and what to use instead
   * @return this spec refusing that key too
   */
  public SettingsSpec refuse(String key, String reason) {
    return withOther(key, new Other(true, reason));
  }

  /**
   * As {@link #refuse}, except for one value that means nothing here, such as the value a tool
   * writes for the key whether or not it is used: the key with that value (spaces aside) is noted
   * as {@link #note} notes a key.
   *
   * @param harmless that value, without spaces
   * @param whyHarmless why it is not used
   * @return this spec refusing that key, but for that value
   */
  public SettingsSpec refuseUnless(String key, String harmless, String reason, String whyHarmless) {
    return withOther(key, new Other(true, reason, harmless, whyHarmless));
  }

  /**
   * A key of another program's configuration that is accepted with no effect here: given, it adds
   * {@code key (how given) is not used: why} to {@link Settings#notes()}, which the program logs.
   *
   * @return this spec noting that key too
   */
  public SettingsSpec note(String key, String why) {
    return withOther(key, new Other(false, why));
  }

  private SettingsSpec withOther(String key, Other other) {
    Map<String, Other> more = new LinkedHashMap<>(others);
    more.put(key, other);
    return new SettingsSpec(settings, more);
  }

  /**
   * @return every alias of every setting, in order
   */
  public Set<String> aliasKeys() {
    return settings.stream()
        .flatMap(s -> s.aliasKeys().stream())
        .collect(Collectors.toCollection(LinkedHashSet::new));
  }

  /** The refused and noted keys. */
  Set<String> otherKeys() {
    return others.keySet();
  }

  /**
   * @return whether this spec declares every setting of {@code other}
   */
  public boolean includes(SettingsSpec other) {
    return settings.containsAll(other.settings);
  }

  /**
   * @return the keys, in order
   */
  public Set<String> keys() {
    return settings.stream().map(Setting::key).collect(Collectors.toCollection(LinkedHashSet::new));
  }

  /**
   * Parses command-line arguments, refuses keys not declared here and reads every value given by
   * its setting's rule, so that a bad one stops the program before anything starts, even one the
   * program reads only later or in some mode. A boolean flag without a value means {@code true}
   * ({@code --compare}).
   *
   * @throws IllegalArgumentException naming the bad argument, unknown key or bad value
   */
  public Settings read(List<String> args) {
    return read(args, Map.of());
  }

  /**
   * As {@link #read(List)}, with the {@code -D} system properties: those named by an alias are read
   * (between flags and the conf file); a refused one stops the program, a noted one is noted.
   *
   * @param properties the process's system properties
   * @throws IllegalArgumentException naming the bad argument, unknown or refused key, or bad value
   */
  public Settings read(List<String> args, Map<String, String> properties) {
    Set<String> booleans = new LinkedHashSet<>();
    settings.stream()
        .filter(Setting::isFlag)
        .forEach(
            s -> {
              booleans.add(s.key());
              booleans.addAll(s.aliasKeys());
            });
    Settings read = Settings.fromArgs(args, booleans).withProperties(properties, aliasKeys());
    List<String> notes = new ArrayList<>(othersGiven(read, properties));
    read.checkKnown(this);
    for (Setting<?> setting : settings) {
      if (read.has(setting) && setting.isRepeatable()) {
        read.getAll(setting);
      } else if (read.has(setting)) {
        read.get(setting);
        notes.addAll(overridden(read.given(setting)));
      }
    }
    return read.withNotes(notes);
  }

  /**
   * Refuses a refused key given anywhere, and notes a noted one, unless the key is a setting's own
   * key read from that source.
   */
  private List<String> othersGiven(Settings given, Map<String, String> properties) {
    Set<String> givenKeys = given.givenKeys();
    Set<String> read = keys();
    Set<String> aliases = aliasKeys();
    List<String> notes = new ArrayList<>();
    others.forEach(
        (key, other) -> {
          boolean asFlagOrConf = givenKeys.contains(key) && !read.contains(key);
          String property = properties.get(key);
          boolean asProperty = property != null && !property.isEmpty() && !aliases.contains(key);
          if (!asFlagOrConf && !asProperty) {
            return;
          }
          String value = asProperty ? property : given.text(key);
          if (other.refuses(value)) {
            throw new IllegalArgumentException(key + ": " + other.reason());
          }
          String how = asProperty ? "-D" + key : key;
          notes.add(
              how + " is not used: " + (other.refused() ? other.whyHarmless() : other.reason()));
        });
    return notes;
  }

  /** Notes for the keys of one setting that lost to the winner with another value. */
  private static List<String> overridden(List<Settings.Given> given) {
    List<String> notes = new ArrayList<>();
    for (Settings.Given loser : given.subList(1, given.size())) {
      if (!loser.last().equals(given.get(0).last())) {
        notes.add(loser.describe() + " is not used: " + given.get(0).describe() + " wins");
      }
    }
    return notes;
  }

  /** What {@code help} says about aliases, after the rules of values. */
  static final String ALIASES =
      """
      Names after "also" are aliases, another program's keys for the setting: read as flags, as
      -Dkey=value system properties (before -jar) and as -conf keys. Flags win over -D, -D over
      -conf; within one of them a setting's own key wins over its aliases.
      """;

  /**
   * @return whether a setting has an alias
   */
  boolean hasAliases() {
    return !aliasKeys().isEmpty();
  }

  /**
   * @return the {@code help} text: per setting {@code --key VALUE (accepted values; default)} and
   *     below it what the setting does
   */
  public String help() {
    StringBuilder out = new StringBuilder();
    for (Setting<?> s : settings) {
      out.append("  --")
          .append(s.key())
          .append(' ')
          .append(s.placeholder())
          .append("  (")
          .append(s.valueHint() == null ? "" : s.valueHint() + "; ")
          .append("default ")
          .append(plain(s.defaultDoc()))
          .append(s.isRepeatable() ? "; repeatable" : "")
          .append(s.aliasKeys().isEmpty() ? "" : "; also " + aliasList(s))
          .append(")\n");
      wrap(plain(s.about()), out);
    }
    return out.toString();
  }

  /**
   * @return the markdown table: setting, accepted values, default, meaning (with the details)
   */
  public String markdown() {
    StringBuilder out = new StringBuilder();
    out.append("| setting | value | default | meaning |\n| --- | --- | --- | --- |\n");
    for (Setting<?> s : settings) {
      String meaning = s.about() + (s.isRepeatable() ? " (repeatable)" : "");
      if (s.details() != null) {
        meaning += ". " + s.details();
      }
      out.append("| `")
          .append(s.key())
          .append("` | ")
          .append(cell(s.valueDoc()))
          .append(" | ")
          .append(cell(s.defaultDoc()))
          .append(" | ")
          .append(cell(meaning))
          .append(" |\n");
    }
    return out.toString();
  }

  /**
   * @param heading the first column's heading: whose keys they are ({@code Okapi's key})
   * @return the markdown table of the keys of another program's configuration this spec knows, in
   *     order: each alias and the setting it stands for, then each refused key with the reason,
   *     then each noted key with why it is not used
   */
  public String aliasMarkdown(String heading) {
    StringBuilder out = new StringBuilder("| " + heading + " | here |\n| --- | --- |\n");
    for (Setting<?> s : settings) {
      for (String alias : s.aliasKeys()) {
        String same = alias.equals(s.key()) ? "the same setting" : "`" + s.key() + "`";
        out.append("| `").append(alias).append("` | ").append(same).append(" |\n");
      }
    }
    others.entrySet().stream()
        .sorted((a, b) -> Boolean.compare(b.getValue().refused(), a.getValue().refused()))
        .forEach(
            e ->
                out.append("| `")
                    .append(e.getKey())
                    .append("` | ")
                    .append(e.getValue().refused() ? "refused: " : "accepted, not used: ")
                    .append(cell(e.getValue().reason()))
                    .append(harmlessDoc(e.getValue()))
                    .append(" |\n"));
    return out.toString();
  }

  private static String harmlessDoc(Other other) {
    return other.harmless() == null
        ? ""
        : "; `" + other.harmless() + "` is accepted, not used: " + cell(other.whyHarmless());
  }

  /** The aliases for {@code help}; the own key as an alias is written {@code -Dkey}. */
  private static String aliasList(Setting<?> s) {
    return s.aliasKeys().stream()
        .map(k -> k.equals(s.key()) ? "-D" + k : k)
        .collect(Collectors.joining(", "));
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }

  /** Markdown code spans and links read as plain text in a terminal. */
  private static String plain(String markdown) {
    return markdown.replace("`", "").replaceAll("\\[([^]]+)]\\([^)]+\\)", "$1");
  }

  /** Appends {@code text} indented, in lines of at most 100 characters (longer words alone). */
  static void wrap(String text, StringBuilder out) {
    StringBuilder line = new StringBuilder(INDENT);
    for (String word : text.strip().split("\\s+")) {
      if (line.length() > INDENT.length() && line.length() + 1 + word.length() > WIDTH) {
        out.append(line).append('\n');
        line = new StringBuilder(INDENT);
      }
      line.append(line.length() > INDENT.length() ? " " : "").append(word);
    }
    out.append(line).append('\n');
  }
}
