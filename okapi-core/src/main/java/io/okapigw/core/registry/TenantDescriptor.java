package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonObject;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A tenant: id, name, description and, this gateway's addition, {@code "auth"}: {@code "okapi"}
 * (the default: its auth filter decides) or {@code "eureka"} (Keycloak decides, {@link AuthKind}).
 * Unknown fields are kept. A new tenant's id follows Okapi 6.1.5 ({@link #checkNewId}); tenants
 * stored earlier may also have {@code _} and up to 63 characters.
 */
public record TenantDescriptor(String id, JsonObject json) {

  /** The built-in tenant whose module is the admin API. */
  public static final String SUPERTENANT = "supertenant";

  private static final Pattern ID = Pattern.compile("[a-z][a-z0-9_]{0,62}");

  /** Okapi 6's rule for tenant ids (FOLIO's ADR-000002). */
  private static final Pattern NEW_ID = Pattern.compile("[a-z][a-z0-9]{0,30}");

  private static final int NEW_ID_MAX = 31;

  /**
   * Parses and validates a tenant.
   *
   * @param pathId the id from the URL for a PUT, or {@code null} for a POST
   * @throws HttpError 400 naming the problem
   */
  public static TenantDescriptor fromJson(JsonObject json, String pathId) {
    String id = JsonFields.optionalString(json, "id", "tenant");
    if (id == null && pathId != null) {
      id = pathId;
    }
    if (id == null || id.isBlank()) {
      throw HttpError.badRequest("tenant: missing id");
    }
    if (pathId != null && !pathId.equals(id)) {
      throw HttpError.badRequest(
          "tenant: id '" + id + "' does not match the path '" + pathId + "'");
    }
    if (!ID.matcher(id).matches()) {
      checkNewId(id); // says what is wrong, as no stored id breaks the rule for new ones
    }
    JsonFields.optionalString(json, "name", "tenant " + id);
    JsonFields.optionalString(json, "description", "tenant " + id);
    AuthKind.of(json.getValue(AuthKind.FIELD));
    return new TenantDescriptor(id, json.copy().put("id", id));
  }

  /**
   * Okapi 6.1.5's rule for a new tenant's id: a lower-case letter, then at most 30 lower-case
   * letters or digits (FOLIO's ADR-000002; the id becomes part of database schema names).
   *
   * @throws HttpError 400 saying what is wrong, in Okapi's words
   */
  public static void checkNewId(String id) {
    if (NEW_ID.matcher(id).matches()) {
      return;
    }
    String problem =
        id.contains("_")
            ? "must not contain underscore"
            : id.contains("-")
                ? "must not contain minus"
                : id.length() > NEW_ID_MAX
                    ? "must not exceed 31 characters"
                    : !id.isEmpty() && Character.isDigit(id.charAt(0))
                        ? "must not start with a digit"
                        : "may only contain a-z and 0-9 and must match '[a-z][a-z0-9]{0,30}'";
    throw HttpError.badRequest("Tenant id " + problem + ": " + id);
  }

  /**
   * @return an id for a tenant posted without one, as Okapi makes it: {@code t} and hex
   */
  public static String generatedId() {
    return ("t" + UUID.randomUUID().toString().replace("-", "")).substring(0, NEW_ID_MAX);
  }

  /**
   * @return the built-in supertenant, described as Okapi describes it
   */
  static TenantDescriptor supertenant() {
    return new TenantDescriptor(
        SUPERTENANT,
        new JsonObject()
            .put("id", SUPERTENANT)
            .put("name", SUPERTENANT)
            .put("description", "Okapi built-in super tenant"));
  }

  /**
   * @return who decides on the tenant's requests
   */
  public AuthKind auth() {
    return AuthKind.of(json.getValue(AuthKind.FIELD));
  }

  /**
   * @return the tenant as JSON (a copy)
   */
  public JsonObject toJson() {
    return json.copy();
  }
}
