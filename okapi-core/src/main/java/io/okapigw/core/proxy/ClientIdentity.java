package io.okapigw.core.proxy;

import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import io.okapigw.core.auth.UnverifiedClaims;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.registry.TenantDescriptor;
import io.vertx.core.MultiMap;

/**
 * Who a request is for, read as Okapi 6 reads it. The token comes from {@code X-Okapi-Token},
 * {@code Authorization} (with or without {@code Bearer }) or the {@code folioAccessToken} cookie
 * (what Stripes sends); two different tokens are a 400. The tenant comes from {@code
 * X-Okapi-Tenant}, else from the token's {@code tenant} claim (read unverified, like Okapi; the
 * auth filter verifies every token), else it is the {@code supertenant}.
 *
 * @param tenant the tenant id
 * @param token the token, or {@code null} if the request has none
 */
public record ClientIdentity(String tenant, String token) {

  /** The cookie Stripes keeps the access token in. */
  public static final String ACCESS_TOKEN_COOKIE = "folioAccessToken";

  private static final String BEARER = "bearer ";

  /**
   * @throws HttpError 400 if the token sources disagree, two access-token cookies are sent, or no
   *     tenant is named and the token is not a readable JWT
   */
  public static ClientIdentity from(MultiMap headers) {
    String token = token(headers);
    String tenant = headers.get(OkapiHeaders.TENANT);
    if (tenant != null && !tenant.isBlank()) {
      return new ClientIdentity(tenant.trim(), token);
    }
    if (token == null) {
      return new ClientIdentity(TenantDescriptor.SUPERTENANT, null);
    }
    UnverifiedClaims claims =
        UnverifiedClaims.of(token)
            .orElseThrow(
                () ->
                    HttpError.badRequest(
                        "no X-Okapi-Tenant header, and the token is not a JWT that names a tenant"));
    return new ClientIdentity(claims.tenant().orElse(TenantDescriptor.SUPERTENANT), token);
  }

  /**
   * @param tenant the tenant the request is for, whatever its headers say
   * @throws HttpError 400 if the token sources disagree
   */
  public static ClientIdentity forTenant(String tenant, MultiMap headers) {
    return new ClientIdentity(tenant, token(headers));
  }

  private static String token(MultiMap headers) {
    String token = emptyToNull(headers.get(OkapiHeaders.TOKEN));
    String authorization = emptyToNull(headers.get(OkapiHeaders.AUTHORIZATION));
    if (authorization != null) {
      token =
          agree(
              token,
              withoutBearer(authorization),
              "X-Okapi-Token and Authorization carry different tokens; send only one of them");
    }
    String cookies = headers.get("Cookie");
    if (cookies != null) {
      String cookie = accessTokenCookie(cookies);
      if (cookie != null) {
        token =
            agree(
                token,
                cookie,
                "the "
                    + ACCESS_TOKEN_COOKIE
                    + " cookie and the token header carry different tokens");
      }
    }
    return token;
  }

  private static String agree(String current, String other, String conflict) {
    if (current != null && !current.equals(other)) {
      throw HttpError.badRequest(conflict);
    }
    return other;
  }

  private static String withoutBearer(String authorization) {
    return authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())
        ? authorization.substring(BEARER.length()).trim()
        : authorization;
  }

  private static String accessTokenCookie(String header) {
    String value = null;
    for (Cookie cookie : ServerCookieDecoder.STRICT.decodeAll(header)) {
      if (ACCESS_TOKEN_COOKIE.equals(cookie.name())) {
        if (value != null) {
          throw HttpError.badRequest("more than one " + ACCESS_TOKEN_COOKIE + " cookie");
        }
        value = cookie.value();
      }
    }
    return emptyToNull(value);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
