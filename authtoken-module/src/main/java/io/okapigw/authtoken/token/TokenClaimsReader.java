package io.okapigw.authtoken.token;

import io.jsonwebtoken.Claims;
import io.okapigw.authtoken.http.ApiException;
import java.util.ArrayList;
import java.util.List;

/** Reads and checks the claims of a token whose signature and dates were verified. */
final class TokenClaimsReader {
  private TokenClaimsReader() {}

  static TokenClaims read(Claims claims) {
    String type = string(claims, "type");
    String subject = claims.getSubject();
    String tenant = string(claims, "tenant");
    String userId = string(claims, "user_id");
    String sessionId = string(claims, "sid");
    if (claims.getExpiration() == null) {
      throw ApiException.unauthorized("token has no expiry");
    }
    if (subject == null || tenant == null) {
      throw ApiException.unauthorized("token lacks sub or tenant");
    }
    boolean access = TokenService.ACCESS.equals(type);
    if (!access && !TokenService.MODULE.equals(type)) {
      throw ApiException.unauthorized("token type must be access or module");
    }
    if ((access || userId != null) && (userId == null || sessionId == null)) {
      throw ApiException.unauthorized("token lacks user_id or sid");
    }
    return new TokenClaims(
        type,
        subject,
        userId,
        tenant,
        sessionId,
        access ? List.of() : permissions(claims.get("extra_permissions")),
        claims.getExpiration().toInstant());
  }

  private static String string(Claims claims, String name) {
    Object value = claims.get(name);
    if (value == null || value instanceof String) {
      return (String) value;
    }
    throw ApiException.unauthorized("token claim " + name + " must be a string");
  }

  private static List<String> permissions(Object value) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof List<?> list)) {
      throw ApiException.unauthorized("token claim extra_permissions must be an array");
    }
    List<String> perms = new ArrayList<>(list.size());
    for (Object item : list) {
      if (!(item instanceof String s)) {
        throw ApiException.unauthorized("token claim extra_permissions must hold strings");
      }
      perms.add(s);
    }
    return perms;
  }
}
