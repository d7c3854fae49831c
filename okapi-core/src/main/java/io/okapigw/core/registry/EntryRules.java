package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Okapi 6.1.5's rules for a routing entry of a posted descriptor: those of its {@code RoutingEntry}
 * setters, which hold wherever an entry is ({@code type}, {@code methods}, {@code pathPattern},
 * {@code phase}, {@code unit}), and those of its {@code validateHandlers} and {@code
 * validateFilters}, which hold for the handlers of {@code provides} and for {@code filters} (a
 * {@code path} or {@code pathPattern}; a {@code redirect} needs its {@code redirectPath}). What
 * Okapi takes, this gateway takes, even when it can never be matched (no {@code methods}, a pattern
 * without a leading {@code /}): Okapi may hold such a descriptor already, and an install script
 * posts it again. Each failure is a 400 naming the entry and the problem.
 */
final class EntryRules {

  /** Handler and filter types Okapi knows. */
  static final Set<String> TYPES =
      Set.of(
          "request-response",
          "request-only",
          "headers",
          "redirect",
          "system",
          "internal",
          "request-response-1.0",
          "request-log");

  private static final Set<String> METHODS =
      HttpMethod.values().stream().map(HttpMethod::name).collect(Collectors.toUnmodifiableSet());

  private static final Set<String> UNITS = Set.of("millisecond", "second", "minute", "hour", "day");

  /** Characters Okapi 6.1.5 refuses in a pathPattern (its RoutingEntry.INVALID_PATH_CHARS). */
  private static final String INVALID_PATH_CHARS = "\\%+{}()[].;:=?@#^$\"' ";

  private EntryRules() {}

  /**
   * The setters' rules, for an entry anywhere in a descriptor.
   *
   * @param entry in {@link OkapiForm}'s form
   */
  static void checkValues(JsonObject entry, String where) {
    String type = JsonFields.text(entry, "type");
    if (type != null && !TYPES.contains(type)) {
      throw bad(
          where,
          "invalid type '"
              + type
              + "' ("
              + String.join(", ", TYPES.stream().sorted().toList())
              + ")");
    }
    for (Object method : entry.getJsonArray("methods", new JsonArray())) {
      if (!"*".equals(method) && !METHODS.contains(method)) {
        throw bad(where, "invalid method '" + method + "' (upper case, e.g. GET, or *)");
      }
    }
    String phase = JsonFields.text(entry, "phase");
    if (phase != null && !RoutingEntry.PHASES.contains(phase)) {
      throw bad(where, "phase must be one of auth, pre, post; was " + phase);
    }
    String unit = JsonFields.text(entry, "unit");
    if (unit != null && !UNITS.contains(unit)) {
      throw bad(where, "unit must be one of millisecond, second, minute, hour, day; was " + unit);
    }
    String pattern = JsonFields.text(entry, "pathPattern");
    if (pattern != null) {
      checkSyntax(pattern, where);
    }
  }

  /**
   * Okapi's {@code validateHandlers} and {@code validateFilters}: a path to match, and a redirect's
   * target.
   */
  static void checkRouted(JsonObject entry, String where) {
    String pattern = JsonFields.text(entry, "pathPattern");
    String path = JsonFields.text(entry, "path");
    if ((pattern == null || pattern.isEmpty()) && (path == null || path.isEmpty())) {
      throw bad(where, "needs a pathPattern or a path");
    }
    String redirect = JsonFields.text(entry, "redirectPath");
    if (RoutingEntry.REDIRECT.equals(entry.getValue("type"))
        && (redirect == null || redirect.isEmpty())) {
      throw bad(where, "a redirect entry needs a redirectPath");
    }
  }

  /**
   * Okapi 6.1.5's rules ({@code RoutingEntry.setPathPattern}): none of INVALID_PATH_CHARS outside a
   * {@code {name}}; every opening brace closed; neither {@code /} nor those characters inside the
   * braces. Otherwise the pattern would be matched literally, never as intended.
   */
  private static void checkSyntax(String pattern, String where) {
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '{') {
        i = endOfName(pattern, i, where);
      } else if (INVALID_PATH_CHARS.indexOf(c) >= 0) {
        throw badPattern(pattern, where, "invalid character " + quoted(c) + " at index " + i);
      }
    }
  }

  /**
   * @return the index of the brace closing the one at {@code open}
   */
  private static int endOfName(String pattern, int open, String where) {
    for (int i = open + 1; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '}') {
        return i;
      }
      if (c == '/' || INVALID_PATH_CHARS.indexOf(c) >= 0) {
        throw badPattern(
            pattern,
            where,
            (c == '/' ? "/" : "invalid character " + quoted(c)) + " inside {} at index " + i);
      }
    }
    throw badPattern(pattern, where, "missing } for the { at index " + open);
  }

  private static String quoted(char c) {
    return c == ' ' ? "' '" : String.valueOf(c);
  }

  private static HttpError badPattern(String pattern, String where, String problem) {
    return bad(where, "pathPattern " + pattern + ": " + problem);
  }

  private static HttpError bad(String where, String problem) {
    return HttpError.badRequest(where + ": " + problem);
  }
}
