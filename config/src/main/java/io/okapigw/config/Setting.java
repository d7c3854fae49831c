package io.okapigw.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One setting, declared once: its key, how its text is read ({@link Values}' rules), the values it
 * accepts, its default and its documentation. From it {@link Settings#get} reads the value, an
 * options class checks a value set in code ({@link #check}), and {@link SettingsSpec} prints {@code
 * help} and the settings table of the docs.
 *
 * <p>Every error has the form {@code <key> must be <rule>, was '<value>'}.
 *
 * <p>A setting may have {@linkplain #alias aliases}: the keys another program reads for the same
 * thing (the gateway's are Okapi's: {@code okapiurl} for {@code okapi-url}), read as flags, as
 * {@code -Dkey=value} system properties and as {@code -conf} keys, each by its own value rule.
 *
 * <pre>{@code
 * static final Setting<Duration> IDLE_TIMEOUT =
 *     Setting.duration("proxy.idle-timeout", Duration.ofSeconds(60), MS, DAY)
 *         .about("longest silence while waiting for a module");
 * }</pre>
 *
 * @param <T> the value's type
 */
public final class Setting<T> {

  /**
   * The values accepted beyond being readable: {@code rule} completes {@code must be}; {@code doc}
   * is the accepted values in the docs table (null: the kind's name), {@code hint} in {@code help}.
   */
  private record Constraint<T>(Predicate<? super T> test, String rule, String doc, String hint) {
    static <T> Constraint<T> none() {
      return new Constraint<>(v -> true, null, null, null);
    }
  }

  /** What {@code help} and the docs say about the setting. */
  private record Doc(String about, String details, String shownDefault, boolean repeatable) {}

  /**
   * Another key for this setting: {@code read} gives the value of a text (null if it does not
   * follow {@code rule}), a null {@code rule} meaning the setting's own.
   */
  private record Alias<T>(String key, Function<String, T> read, String rule) {}

  private final String key;
  private final Kind<T> kind;
  private final T defaultValue;
  private final Constraint<T> constraint;
  private final Doc doc;
  private final List<Alias<T>> aliases;

  private Setting(
      String key,
      Kind<T> kind,
      T defaultValue,
      Constraint<T> constraint,
      Doc doc,
      List<Alias<T>> aliases) {
    this.key = Objects.requireNonNull(key, "key");
    this.kind = kind;
    this.defaultValue = defaultValue;
    this.constraint = constraint;
    this.doc = doc;
    this.aliases = List.copyOf(aliases);
  }

  private static <T> Setting<T> of(String key, Kind<T> kind, T defaultValue, Constraint<T> c) {
    return new Setting<>(key, kind, defaultValue, c, new Doc("", null, null, false), List.of());
  }

  private Setting<T> with(Doc newDoc) {
    return new Setting<>(key, kind, defaultValue, constraint, newDoc, aliases);
  }

  /**
   * @return a whole-number setting accepting {@code min..max}
   */
  public static Setting<Integer> integer(String key, int defaultValue, int min, int max) {
    return of(key, Kind.INTEGER, defaultValue, between(Kind.INTEGER, min, max));
  }

  /**
   * @return a setting listing whole numbers ({@code 1,8,32}), each accepted in {@code min..max}
   */
  public static Setting<List<Integer>> integers(
      String key, List<Integer> defaultValue, int min, int max) {
    Kind<List<Integer>> kind = Kind.list(Kind.INTEGER, "integers", Values.INTEGERS_RULE);
    return of(key, kind, defaultValue, each(between(Kind.INTEGER, min, max), kind));
  }

  /**
   * @return a size setting (bytes) accepting {@code min..max}
   */
  public static Setting<Long> size(String key, long defaultValue, long min, long max) {
    return of(key, Kind.SIZE, defaultValue, between(Kind.SIZE, min, max));
  }

  /**
   * @return a setting listing sizes ({@code 1KB,16MB}), each accepted in {@code min..max}
   */
  public static Setting<List<Long>> sizes(String key, List<Long> defaultValue, long min, long max) {
    Kind<List<Long>> kind = Kind.list(Kind.SIZE, "sizes", Values.SIZES_RULE);
    return of(key, kind, defaultValue, each(between(Kind.SIZE, min, max), kind));
  }

  /**
   * @return a duration setting accepting {@code min..max}
   */
  public static Setting<Duration> duration(
      String key, Duration defaultValue, Duration min, Duration max) {
    return of(key, Kind.DURATION, defaultValue, between(Kind.DURATION, min, max));
  }

  /**
   * @return a duration setting accepting any duration from 0 up
   */
  public static Setting<Duration> duration(String key, Duration defaultValue) {
    return duration(key, defaultValue, Duration.ZERO, null);
  }

  /**
   * @return a boolean setting; as a flag without a value it means {@code true} ({@code --compare})
   */
  public static Setting<Boolean> bool(String key, boolean defaultValue) {
    return of(key, Kind.BOOLEAN, defaultValue, Constraint.none());
  }

  /**
   * A setting choosing one constant of {@code E}, written in lower case with {@code -} for {@code
   * _}.
   *
   * @return the setting
   */
  public static <E extends Enum<E>> Setting<E> choice(String key, E defaultValue) {
    Kind<E> kind = Kind.choice(defaultValue.getDeclaringClass().getEnumConstants());
    return of(key, kind, defaultValue, Constraint.none());
  }

  /**
   * @param placeholder what the value is, for {@code help} and the docs: {@code URL}, {@code HOST}
   * @return a text setting; {@link #check} adds a rule
   */
  public static Setting<String> text(String key, String defaultValue, String placeholder) {
    return of(key, Kind.text(placeholder), defaultValue, Constraint.none());
  }

  /**
   * @return a setting whose value is JSON text (an array or object may be given as is in a {@code
   *     -conf} file); null by default
   */
  public static Setting<String> json(String key) {
    return of(key, Kind.JSON, null, Constraint.none());
  }

  /**
   * @return whether a {@code -conf} file may give this setting an object or array
   */
  boolean acceptsStructured() {
    return kind == Kind.JSON;
  }

  /**
   * @param about what the setting does, one line (markdown; shown in {@code help} and the docs)
   * @return this setting so described
   */
  public Setting<T> about(String about) {
    return with(new Doc(about, doc.details(), doc.shownDefault(), doc.repeatable()));
  }

  /**
   * @param details more on the setting, for the docs table only (markdown)
   * @return this setting so described
   */
  public Setting<T> details(String details) {
    return with(new Doc(doc.about(), details, doc.shownDefault(), doc.repeatable()));
  }

  /**
   * @param text how the default is shown when it is not a fixed value, e.g. {@code cores}
   * @return this setting with that text
   */
  public Setting<T> shownDefault(String text) {
    return with(new Doc(doc.about(), doc.details(), text, doc.repeatable()));
  }

  /**
   * @return this setting, given any number of times ({@link Settings#getAll})
   */
  public Setting<T> repeatable() {
    return with(new Doc(doc.about(), doc.details(), doc.shownDefault(), true));
  }

  /**
   * @param test whether a value is accepted
   * @param rule what an accepted value is, completing {@code <key> must be ...}; also the accepted
   *     values in the docs
   * @return this setting, accepting only values that pass {@code test} (instead of a range)
   */
  public Setting<T> check(Predicate<? super T> test, String rule) {
    return check(test, rule, rule);
  }

  /**
   * As {@link #check(Predicate, String)}, with a shorter text of the accepted values for {@code
   * help} and the docs than the error's {@code rule}.
   *
   * @return this setting, accepting only values that pass {@code test}
   */
  public Setting<T> check(Predicate<? super T> test, String rule, String accepted) {
    Constraint<T> c = new Constraint<>(test, rule, accepted, accepted);
    return new Setting<>(key, kind, defaultValue, c, doc, aliases);
  }

  /**
   * Another key for this setting, its value read by the same rules: how a setting also answers to
   * another program's name for it (Okapi's {@code http.port} for {@code port}). An alias is read as
   * a flag, a {@code -Dkey=value} system property and a {@code -conf} key. The setting's own key
   * given as an alias is read from system properties too, in the aliases' order.
   *
   * @return this setting with that alias after the others
   */
  public Setting<T> alias(String aliasKey) {
    return alias(aliasKey, kind.read(), null);
  }

  /**
   * An alias whose values follow rules of their own: Okapi's {@code token_cache_ttl_ms} is a whole
   * number of milliseconds, ours a duration with a unit.
   *
   * @param read the value of a text, null if the text does not follow {@code rule}
   * @param rule what a readable text is, completing {@code <alias> must be ...}
   * @return this setting with that alias after the others
   */
  public Setting<T> alias(String aliasKey, Function<String, T> read, String rule) {
    List<Alias<T>> more = new ArrayList<>(aliases);
    more.add(new Alias<>(Objects.requireNonNull(aliasKey, "alias"), read, rule));
    return new Setting<>(key, kind, defaultValue, constraint, doc, more);
  }

  /**
   * @return the aliases' keys, in order
   */
  public List<String> aliasKeys() {
    return aliases.stream().map(Alias::key).toList();
  }

  /**
   * The keys under which a value is looked for in one source, first found first: the own key, then
   * the aliases; the aliases' order alone when the own key is one of them.
   */
  List<String> lookupOrder() {
    List<String> order = new ArrayList<>(aliasKeys());
    if (!order.contains(key)) {
      order.add(0, key);
    }
    return order;
  }

  /**
   * @return the key, as a flag ({@code --key}) and as a {@code -conf} JSON key
   */
  public String key() {
    return key;
  }

  /**
   * @return the value when the setting is not given (may be null)
   */
  public T defaultValue() {
    return defaultValue;
  }

  /**
   * Reads a text by the rules of this setting's kind and checks it.
   *
   * @return the value
   * @throws IllegalArgumentException {@code <key> must be ..., was '<text>'}
   */
  public T parse(String text) {
    return parse(key, text);
  }

  /**
   * Reads a text given under {@code given}, this setting's key or one of its aliases, by that key's
   * rules, and checks it; errors name {@code given}.
   *
   * @return the value
   * @throws IllegalArgumentException {@code <given> must be ..., was '<text>'}
   */
  public T parse(String given, String text) {
    Alias<T> alias =
        aliases.stream()
            .filter(a -> a.key().equals(given))
            .findFirst()
            .orElseGet(() -> new Alias<>(key, kind.read(), null));
    T value = alias.read().apply(text);
    if (value == null) {
      String rule = alias.rule() != null ? alias.rule() : kind.rule();
      throw new IllegalArgumentException(given + " must be " + rule + ", was '" + text + "'");
    }
    if (!constraint.test().test(value)) {
      throw new IllegalArgumentException(
          given + " must be " + constraint.rule() + ", was '" + text + "'");
    }
    return value;
  }

  /**
   * Checks a value set in code, as {@link #parse} checks a text.
   *
   * @return {@code value}
   * @throws IllegalArgumentException {@code <key> must be ..., was '<value>'}, also for null
   */
  public T check(T value) {
    if (value == null || !constraint.test().test(value)) {
      String rule = constraint.rule() != null ? constraint.rule() : "given";
      throw new IllegalArgumentException(
          key + " must be " + rule + ", was '" + (value == null ? null : format(value)) + "'");
    }
    return value;
  }

  /**
   * @return {@code value} as it would be written in a flag
   */
  public String format(T value) {
    return kind.format().apply(value);
  }

  /** Whether a flag without a value means {@code true}. */
  boolean isFlag() {
    return kind.flag();
  }

  boolean isRepeatable() {
    return doc.repeatable();
  }

  String about() {
    return doc.about();
  }

  String details() {
    return doc.details();
  }

  String placeholder() {
    return kind.placeholder();
  }

  /** The accepted values for the docs: {@code duration 1ms..1d}, {@code one of off, safe}. */
  String valueDoc() {
    return constraint.doc() == null ? kind.docName() : constraint.doc();
  }

  /** The accepted values beyond the placeholder, for {@code help}: {@code 1ms..1d}; or null. */
  String valueHint() {
    return constraint.hint();
  }

  /** The default for the docs: its text, {@code none} for null. */
  String defaultDoc() {
    if (doc.shownDefault() != null) {
      return doc.shownDefault();
    }
    return defaultValue == null ? "none" : format(defaultValue);
  }

  private static <T extends Comparable<? super T>> Constraint<T> between(
      Kind<T> kind, T min, T max) {
    String low = kind.format().apply(min);
    if (max == null) {
      return new Constraint<>(
          v -> v.compareTo(min) >= 0,
          "at least " + low,
          kind.docName() + " >= " + low,
          ">= " + low);
    }
    String high = kind.format().apply(max);
    String range = low + ".." + high;
    return new Constraint<>(
        v -> v.compareTo(min) >= 0 && v.compareTo(max) <= 0,
        "between " + low + " and " + high,
        kind.docName() + " " + range,
        range);
  }

  /** A list's constraint: every item passes {@code item}. */
  private static <T> Constraint<List<T>> each(Constraint<T> item, Kind<List<T>> kind) {
    return new Constraint<>(
        list -> list.stream().allMatch(item.test()),
        item.rule() + " each",
        kind.docName() + " " + item.hint(),
        item.hint());
  }

  @Override
  public String toString() {
    return key;
  }
}
