package io.okapigw.core.proxy;

import io.okapigw.core.auth.UnverifiedClaims;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.vertx.core.MultiMap;
import java.util.Optional;

/**
 * Who a request is for: the tenant (X-Okapi-Tenant, else the token's {@code tenant} claim read
 * unverified, like Okapi) and the token (X-Okapi-Token or {@code Authorization: Bearer}).
 *
 * @param tenant the tenant id
 * @param token the token, or {@code null} if the request has none
 */
public record ClientIdentity(String tenant, String token) {

  private static final String BEARER = "bearer ";

  /**
   * @throws HttpError 400 if both token headers are present and differ, or no tenant is known
   */
  public static ClientIdentity from(MultiMap headers) {
    String token = token(headers);
    String tenant = headers.get(OkapiHeaders.TENANT);
    if (tenant == null || tenant.isBlank()) {
      tenant = UnverifiedClaims.of(token).flatMap(UnverifiedClaims::tenant).orElse(null);
    }
    if (tenant == null || tenant.isBlank()) {
      throw HttpError.badRequest("missing X-Okapi-Tenant header (and no token naming a tenant)");
    }
    return new ClientIdentity(tenant.trim(), token);
  }

  private static String token(MultiMap headers) {
    String okapiToken = blankToNull(headers.get(OkapiHeaders.TOKEN));
    String bearer = bearer(headers.get(OkapiHeaders.AUTHORIZATION)).orElse(null);
    if (okapiToken != null && bearer != null && !okapiToken.equals(bearer)) {
      throw HttpError.badRequest("X-Okapi-Token and Authorization: Bearer carry different tokens");
    }
    return okapiToken != null ? okapiToken : bearer;
  }

  private static Optional<String> bearer(String authorization) {
    if (authorization == null || authorization.length() <= BEARER.length()
        || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return Optional.empty();
    }
    return Optional.ofNullable(blankToNull(authorization.substring(BEARER.length()).trim()));
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
