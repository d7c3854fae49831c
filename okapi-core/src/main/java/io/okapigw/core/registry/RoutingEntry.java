package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A handler or filter of a module descriptor: which methods and paths it serves and the
 * permissions it needs. {@code phase} is {@code null} for handlers.
 *
 * @param methods HTTP methods, upper case; {@code *} for any
 * @param pathPattern Okapi path pattern ({@code {param}} and {@code *}); a legacy {@code path}
 *     prefix is turned into {@code prefix*}
 * @param phase {@code auth}, {@code pre} or {@code post} for filters, {@code null} for handlers
 * @param type the Okapi proxy type ({@code request-response}, {@code headers}, ...), may be null
 */
public record RoutingEntry(List<String> methods, String pathPattern, String phase, String type,
    List<String> permissionsRequired, List<String> permissionsDesired,
    List<String> modulePermissions) {

  /** The filter phases, in the order they run around the handler. */
  public static final Set<String> PHASES = Set.of("auth", "pre", "post");

  static RoutingEntry fromJson(JsonObject json, String where, boolean filter) {
    List<String> methods = JsonFields.strings(json, "methods", where).stream()
        .map(m -> m.toUpperCase(Locale.ROOT)).toList();
    if (methods.isEmpty()) {
      throw HttpError.badRequest(where + ": missing methods");
    }
    String phase = JsonFields.optionalString(json, "phase", where);
    if (filter && (phase == null || !PHASES.contains(phase))) {
      throw HttpError.badRequest(where + ": phase must be one of auth, pre, post; was " + phase);
    }
    return new RoutingEntry(methods, pattern(json, where), filter ? phase : null,
        JsonFields.optionalString(json, "type", where),
        JsonFields.strings(json, "permissionsRequired", where),
        JsonFields.strings(json, "permissionsDesired", where),
        JsonFields.strings(json, "modulePermissions", where));
  }

  private static String pattern(JsonObject json, String where) {
    String pattern = JsonFields.optionalString(json, "pathPattern", where);
    if (pattern == null) {
      String path = JsonFields.optionalString(json, "path", where);
      pattern = path == null ? null : path + "*";
    }
    if (pattern == null || !pattern.startsWith("/")) {
      throw HttpError.badRequest(where + ": pathPattern must start with /, was " + pattern);
    }
    return pattern;
  }

  /** @return whether this entry serves {@code method} (or any method) */
  public boolean servesMethod(String method) {
    return methods.contains("*") || methods.contains(method);
  }
}
