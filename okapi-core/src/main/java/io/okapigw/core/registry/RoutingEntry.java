package io.okapigw.core.registry;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * A handler or filter of a module descriptor: which methods and paths it serves and the permissions
 * it needs. {@code phase} is {@code null} for handlers.
 *
 * @param methods HTTP methods, upper case; {@code *} for any; none: never matched (Okapi takes such
 *     entries and never matches them)
 * @param pathPattern Okapi path pattern ({@code {param}} and {@code *}); a legacy {@code path}
 *     prefix is turned into {@code prefix*}; empty when the entry has neither
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
 * @param rewritePath Okapi's {@code rewritePath}: put before the path the module is called with
 *     ({@code /rewritten} + {@code /items}); null for none
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
    List<String> permissionsRequiredTenant,
    String rewritePath) {

  /** The filter phases, in the order they run around the handler. */
  public static final Set<String> PHASES = Set.of("auth", "pre", "post");

  /** Okapi's {@code level} of handlers: filters below it run before them, above it after. */
  private static final String HANDLER_LEVEL = "50";

  /** The {@code type} of an entry that sends the request on to another path. */
  public static final String REDIRECT = "redirect";

  /**
   * Reads an entry of a registered descriptor (in {@link OkapiForm}'s form) as Okapi 6.1.5 reads
   * it, whatever it holds: the rules for new entries ({@link EntryRules}) are checked when a
   * descriptor is posted, and Okapi took some that are never matched, such as one without {@code
   * methods} or with a {@code pathPattern} not starting with {@code /} (see {@link #routable}).
   *
   * @param filter whether it is a filter (else a handler)
   */
  static RoutingEntry fromJson(JsonObject json, boolean filter) {
    String type = JsonFields.text(json, "type");
    String path = JsonFields.text(json, "path");
    String pattern = JsonFields.text(json, "pathPattern");
    String redirect = JsonFields.text(json, "redirectPath");
    return new RoutingEntry(
        JsonFields.texts(json, "methods"),
        pattern != null ? pattern : path != null ? path + "*" : "",
        path == null || path.isEmpty() ? (pattern == null ? "" : pattern) : path,
        filter ? phase(json) : null,
        type,
        REDIRECT.equals(type) && redirect != null && !redirect.isEmpty() ? redirect : null,
        Boolean.TRUE.equals(json.getValue("delegateCORS")),
        JsonFields.texts(json, "permissionsRequired"),
        JsonFields.texts(json, "permissionsDesired"),
        JsonFields.texts(json, "modulePermissions"),
        json.containsKey("permissionsRequiredTenant")
            ? JsonFields.texts(json, "permissionsRequiredTenant")
            : null,
        JsonFields.text(json, "rewritePath"));
  }

  /**
   * A filter's phase. Okapi also takes filters without one: those run by their deprecated {@code
   * level} around the handlers' {@code "50"}, levels compared as strings as Okapi sorts them (no
   * level: 50, before the handler); here they are {@code pre} filters, or {@code post} ones for a
   * level after 50. A {@code redirect} filter only redirects, whatever its phase.
   */
  private static String phase(JsonObject json) {
    String phase = JsonFields.text(json, "phase");
    if (phase != null && PHASES.contains(phase)) {
      return phase;
    }
    Object level = json.getValue("level");
    return level != null && level.toString().compareTo(HANDLER_LEVEL) > 0 ? "post" : "pre";
  }

  /**
   * @return whether a request can match this entry: it has methods, and its pattern can match a
   *     path (one starts with {@code /}). Okapi keeps the others and never matches them either.
   */
  public boolean routable() {
    return !methods.isEmpty() && (pathPattern.startsWith("/") || pathPattern.startsWith("*"));
  }

  /**
   * @return whether this entry serves {@code method} (or any method)
   */
  public boolean servesMethod(String method) {
    return methods.contains("*") || methods.contains(method);
  }

  /**
   * @return the path and query the module is called with for a request of {@code uri}: with Okapi's
   *     {@code rewritePath} before it
   */
  public String moduleUri(String uri) {
    return rewritePath == null ? uri : rewritePath + uri;
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
