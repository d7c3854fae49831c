package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonObject;
import java.util.regex.Pattern;

/**
 * A tenant: id (lower-case letters, digits and underscores, starting with a letter), name and
 * description. Unknown fields are kept.
 */
public record TenantDescriptor(String id, JsonObject json) {

  /** The built-in tenant whose module is the admin API. */
  public static final String SUPERTENANT = "supertenant";

  private static final Pattern ID = Pattern.compile("[a-z][a-z0-9_]{0,62}");

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
      throw HttpError.badRequest("tenant: id '" + id + "' does not match the path '" + pathId + "'");
    }
    if (!ID.matcher(id).matches()) {
      throw HttpError.badRequest("tenant: invalid id '" + id
          + "' (lower-case letters, digits and _, starting with a letter, at most 63)");
    }
    JsonFields.optionalString(json, "name", "tenant " + id);
    JsonFields.optionalString(json, "description", "tenant " + id);
    return new TenantDescriptor(id, json.copy().put("id", id));
  }

  /** @return the built-in supertenant, described as Okapi describes it */
  static TenantDescriptor supertenant() {
    return new TenantDescriptor(SUPERTENANT, new JsonObject().put("id", SUPERTENANT)
        .put("name", SUPERTENANT).put("description", "Okapi built-in super tenant"));
  }

  /** @return the tenant as JSON (a copy) */
  public JsonObject toJson() {
    return json.copy();
  }
}
