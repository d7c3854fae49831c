package io.okapigw.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The settings of one program (or one command of it), in the order they are documented. It refuses
 * unknown keys, prints the {@code help} text and renders the settings table of the docs, all from
 * the same {@link Setting} declarations, so they cannot drift apart.
 */
public final class SettingsSpec {

  private static final int WIDTH = 100;
  private static final String INDENT = "      ";

  private final List<Setting<?>> settings;

  private SettingsSpec(List<Setting<?>> settings) {
    this.settings = List.copyOf(settings);
    if (keys().size() != settings.size()) {
      throw new IllegalArgumentException("a key is declared twice: " + settings);
    }
  }

  /**
   * @return the spec of these settings, in this order
   */
  public static SettingsSpec of(Setting<?>... settings) {
    return new SettingsSpec(List.of(settings));
  }

  /**
   * @return these settings followed by {@code more}'s
   */
  public SettingsSpec and(SettingsSpec more) {
    List<Setting<?>> all = new ArrayList<>(settings);
    all.addAll(more.settings);
    return new SettingsSpec(all);
  }

  /**
   * @return the settings of this spec that {@code other} does not declare
   */
  public SettingsSpec without(SettingsSpec other) {
    Set<String> keys = other.keys();
    return new SettingsSpec(settings.stream().filter(s -> !keys.contains(s.key())).toList());
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
    Set<String> booleans =
        settings.stream().filter(Setting::isFlag).map(Setting::key).collect(Collectors.toSet());
    Settings read = Settings.fromArgs(args, booleans);
    read.checkKnown(keys());
    for (Setting<?> setting : settings) {
      if (read.has(setting) && setting.isRepeatable()) {
        read.getAll(setting);
      } else if (read.has(setting)) {
        read.get(setting);
      }
    }
    return read;
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
