package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A handler or filter of a module descriptor: which methods and paths it serves and the permissions
 * it needs. {@code phase} is {@code null} for handlers.
 *
 * @param methods HTTP methods, upper case; {@code *} for any
 * @param pathPattern Okapi path pattern ({@code {param}} and {@code *}); a legacy {@code path}
 *     prefix is turned into {@code prefix*}
 * @param staticPath the {@code path} as posted if there is one, else the {@code pathPattern} (what
 *     Okapi names the entry by in {@code X-Okapi-Filter} and in system permission names)
 * @param phase {@code auth}, {@code pre} or {@code post} for filters (for one posted without, as
 *     its {@code level} places it), {@code null} for handlers
 * @param type the Okapi proxy type ({@code request-response}, {@code headers}, ...), may be null
 * @param redirectPath where a {@code redirect} entry sends the request; null for other types
 * @param delegateCors whether a CORS preflight through {@code /_/invoke/tenant/...} goes to the
 *     module instead of being answered by the gateway
 * @param permissionsRequiredTenant what a caller with a token needs instead of {@code
 *     permissionsRequired} when the path's {@code {tenantId}} is its own tenant (Okapi's admin API
 *     lets a tenant read its own modules so); null when the entry has none
 */
public record RoutingEntry(
    List<String> methods,
    String pathPattern,
    String staticPath,
    String phase,
    String type,
    String redirectPath,
    boolean delegateCors,
    List<String> permissionsRequired,
    List<String> permissionsDesired,
    List<String> modulePermissions,
    List<String> permissionsRequiredTenant) {

  /** The filter phases, in the order they run around the handler. */
  public static final Set<String> PHASES = Set.of("auth", "pre", "post");

  /** Okapi's {@code level} of handlers: filters below it run before them, above it after. */
  private static final String HANDLER_LEVEL = "50";

  /** The {@code type} of an entry that sends the request on to another path. */
  public static final String REDIRECT = "redirect";

  /** Characters Okapi 6.1.5 refuses in a pathPattern (its RoutingEntry.INVALID_PATH_CHARS). */
  private static final String INVALID_PATH_CHARS = "\\%+{}()[].;:=?@#^$\"' ";

  static RoutingEntry fromJson(JsonObject json, String where, boolean filter) {
    List<String> methods =
        JsonFields.strings(json, "methods", where).stream()
            .map(m -> m.toUpperCase(Locale.ROOT))
            .toList();
    if (methods.isEmpty()) {
      throw HttpError.badRequest(where + ": missing methods");
    }
    String phase = filter ? phase(json, where) : null;
    String type = JsonFields.optionalString(json, "type", where);
    String path = JsonFields.optionalString(json, "path", where);
    String pattern = pattern(json, path, where);
    return new RoutingEntry(
        methods,
        pattern,
        path == null || path.isEmpty() ? pattern : path,
        phase,
        type,
        redirectPath(json, type, where),
        Boolean.TRUE.equals(json.getValue("delegateCORS")),
        JsonFields.strings(json, "permissionsRequired", where),
        JsonFields.strings(json, "permissionsDesired", where),
        JsonFields.strings(json, "modulePermissions", where),
        json.containsKey("permissionsRequiredTenant")
            ? JsonFields.strings(json, "permissionsRequiredTenant", where)
            : null);
  }

  /**
   * A filter's phase. Okapi also takes filters without one: those run by their deprecated {@code
   * level} around the handlers' {@code "50"}, levels compared as strings as Okapi sorts them (no
   * level: 50, before the handler); here they are {@code pre} filters, or {@code post} ones for a
   * level after 50. A {@code redirect} filter only redirects, whatever its phase.
   */
  private static String phase(JsonObject json, String where) {
    String phase = JsonFields.optionalString(json, "phase", where);
    if (phase == null) {
      Object level = json.getValue("level");
      return level != null && level.toString().compareTo(HANDLER_LEVEL) > 0 ? "post" : "pre";
    }
    if (!PHASES.contains(phase)) {
      throw HttpError.badRequest(where + ": phase must be one of auth, pre, post; was " + phase);
    }
    return phase;
  }

  private static String pattern(JsonObject json, String path, String where) {
    String pattern = JsonFields.optionalString(json, "pathPattern", where);
    if (pattern != null) {
      checkSyntax(pattern, where);
    } else if (path != null) {
      pattern = path + "*"; // a legacy path, unchecked as in Okapi
    }
    if (pattern == null || !pattern.startsWith("/")) {
      throw HttpError.badRequest(where + ": pathPattern must start with /, was " + pattern);
    }
    return pattern;
  }

  /**
   * Okapi 6.1.5's rules ({@code RoutingEntry.setPathPattern}): none of INVALID_PATH_CHARS outside a
   * {@code {name}}; every opening brace closed; neither {@code /} nor those characters inside the
   * braces. Otherwise the pattern would be matched literally, never as intended.
   *
   * @throws HttpError 400 naming the pattern and the problem
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
    return HttpError.badRequest(where + ": pathPattern " + pattern + ": " + problem);
  }

  private static String redirectPath(JsonObject json, String type, String where) {
    String redirect = JsonFields.optionalString(json, "redirectPath", where);
    if (!REDIRECT.equals(type)) {
      return null;
    }
    if (redirect == null || redirect.isEmpty()) {
      throw HttpError.badRequest(where + ": a redirect entry needs a redirectPath");
    }
    return redirect;
  }

  /**
   * @return whether this entry serves {@code method} (or any method)
   */
  public boolean servesMethod(String method) {
    return methods.contains("*") || methods.contains(method);
  }

  /**
   * @return whether this entry sends requests on to {@link #redirectPath()}
   */
  public boolean isRedirect() {
    return redirectPath != null;
  }

  /**
   * Okapi's name for the permission set standing for this entry's module permissions, e.g. {@code
   * SYS#mod-users-19.2.0#/users/{id}#[GET, PUT]}: handed to {@code _tenantPermissions} 1.1+
   * providers, and sent to the auth filter instead of the module permissions themselves.
   */
  public String systemPermissionName(String moduleId) {
    return "SYS#" + moduleId + "#" + staticPath + "#" + methods;
  }
}
