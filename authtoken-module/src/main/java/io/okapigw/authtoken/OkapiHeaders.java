package io.okapigw.authtoken;

import io.vertx.core.MultiMap;
import java.util.regex.Pattern;

/** Names of the Okapi headers this module reads and writes, and the tenant header check. */
public final class OkapiHeaders {
  /** Tenant of the request. */
  public static final String TENANT = "X-Okapi-Tenant";
  /** The caller's token (a JWT). */
  public static final String TOKEN = "X-Okapi-Token";
  /** User id of the caller. */
  public static final String USER_ID = "X-Okapi-User-Id";
  /** Gateway URL. */
  public static final String URL = "X-Okapi-Url";
  /** Request id, for logs. */
  public static final String REQUEST_ID = "X-Okapi-Request-Id";
  /** Marks a filter call; the auth filter gets {@code auth}. */
  public static final String FILTER = "X-Okapi-Filter";
  /** Permissions the pipeline requires (JSON array). */
  public static final String PERMISSIONS_REQUIRED = "X-Okapi-Permissions-Required";
  /** Permissions the pipeline would like (JSON array). */
  public static final String PERMISSIONS_DESIRED = "X-Okapi-Permissions-Desired";
  /** Module id to module permissions (JSON object). */
  public static final String MODULE_PERMISSIONS = "X-Okapi-Module-Permissions";
  /** Module id to module token (JSON object), answered by the filter. */
  public static final String MODULE_TOKENS = "X-Okapi-Module-Tokens";
  /** Permissions held among required and desired (JSON array), answered by the filter. */
  public static final String PERMISSIONS = "X-Okapi-Permissions";

  private static final Pattern TENANT_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private OkapiHeaders() {
  }

  /**
   * Reads and checks {@code X-Okapi-Tenant}.
   *
   * @param headers request headers
   * @return the tenant id
   * @throws ApiException 400 if missing or not 1-64 characters of {@code [A-Za-z0-9_-]}
   */
  public static String tenant(MultiMap headers) {
    String tenant = headers.get(TENANT);
    if (tenant == null || tenant.isEmpty()) {
      throw ApiException.badRequest("missing header " + TENANT);
    }
    if (!TENANT_ID.matcher(tenant).matches()) {
      throw ApiException.badRequest("invalid header " + TENANT
          + ": must be 1-64 characters of letters, digits, '_' and '-'");
    }
    return tenant;
  }

  /**
   * Reads the request's token from {@code X-Okapi-Token} or {@code Authorization: Bearer}.
   *
   * @param headers request headers
   * @return the token, or {@code null} if none was sent
   * @throws ApiException 401 if both are sent and differ, or Authorization is not a Bearer token
   */
  public static String token(MultiMap headers) {
    String okapi = emptyToNull(headers.get(TOKEN));
    String authorization = emptyToNull(headers.get("Authorization"));
    if (authorization == null) {
      return okapi;
    }
    if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw ApiException.unauthorized("Authorization header must be a Bearer token");
    }
    String bearer = authorization.substring(7).trim();
    if (okapi != null && !okapi.equals(bearer)) {
      throw ApiException.unauthorized("X-Okapi-Token and Authorization carry different tokens");
    }
    return bearer;
  }

  private static String emptyToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
