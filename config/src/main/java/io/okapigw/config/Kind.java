package io.okapigw.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * How a kind of value is read ({@link Values}' rules) and written back.
 *
 * @param placeholder the value in {@code help}: {@code N}, {@code DURATION}
 * @param docName the kind in the docs table: {@code integer}, {@code duration}
 * @param rule what a readable text is, completing {@code <key> must be ...}
 * @param read the value of a text, null if the text does not follow the rule
 * @param format a value as it would be written in a flag
 * @param flag whether a flag without a value means {@code true} (booleans)
 */
record Kind<T>(
    String placeholder,
    String docName,
    String rule,
    Function<String, T> read,
    Function<T, String> format,
    boolean flag) {

  static final Kind<Integer> INTEGER =
      new Kind<>("N", "integer", Values.INTEGER_RULE, Values::integer, String::valueOf, false);
  static final Kind<Long> SIZE =
      new Kind<>("SIZE", "size", Values.SIZE_RULE, Values::size, Sizes::format, false);
  static final Kind<Duration> DURATION =
      new Kind<>(
          "DURATION", "duration", Values.DURATION_RULE, Values::duration, Values::format, false);
  static final Kind<Boolean> BOOLEAN =
      new Kind<>("true|false", "boolean", Values.BOOLEAN_RULE, Values::bool, String::valueOf, true);

  /**
   * A JSON value, kept as its text; in a {@code -conf} file it may be an object or an array
   * (Okapi's {@code dockerRegistries}).
   */
  static final Kind<String> JSON =
      new Kind<>("JSON", "JSON", "JSON", Values::json, Function.identity(), false);

  /** Lower-case names, {@code -} for {@code _}: {@code very-safe}. */
  static <E extends Enum<E>> Kind<E> choice(E[] constants) {
    String names = Arrays.stream(constants).map(Kind::name).collect(Collectors.joining(", "));
    Function<String, E> read =
        text ->
            Arrays.stream(constants)
                .filter(c -> name(c).equals(text.trim().toLowerCase(Locale.ROOT)))
                .findFirst()
                .orElse(null);
    return new Kind<>(
        names.replace(", ", "|"), "one of " + names, "one of " + names, read, Kind::name, false);
  }

  static Kind<String> text(String placeholder) {
    return new Kind<>(
        placeholder, placeholder, placeholder, Function.identity(), Function.identity(), false);
  }

  /**
   * Values of {@code item} separated by commas ({@code 1,8,32}); blanks around each do not matter,
   * an empty item is refused.
   *
   * @param plural the kind in the docs: {@code integers}
   * @param rule what a readable list is, completing {@code <key> must be ...}
   */
  static <T> Kind<List<T>> list(Kind<T> item, String plural, String rule) {
    Function<String, List<T>> read =
        text -> {
          List<T> values = new ArrayList<>();
          for (String part : text.split(",", -1)) {
            T value = item.read().apply(part);
            if (part.isBlank() || value == null) {
              return null;
            }
            values.add(value);
          }
          return List.copyOf(values);
        };
    Function<List<T>, String> format =
        values -> values.stream().map(item.format()).collect(Collectors.joining(","));
    return new Kind<>(item.placeholder() + ",...", plural, rule, read, format, false);
  }

  private static String name(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
