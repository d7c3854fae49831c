package io.okapigw.core.eureka;

import io.jsonwebtoken.Claims;
import io.jsonwebtoken.JwtException;
import io.jsonwebtoken.Jwts;
import io.okapigw.core.auth.AuthRefusal;
import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Clock;
import java.util.Base64;
import java.util.Date;

/**
 * Checks a Keycloak access token as the sidecar does (smallrye-jwt with the realm's JWKS): an RS256
 * signature by a key of the realm ({@link RealmKeys}), {@code exp} (with {@code
 * eureka.clock-skew}), and {@code iss}. Unlike the sidecar, whose issuer check is that {@code iss}
 * starts with Keycloak's URL and which fetches the keys from the URL the token's own {@code iss}
 * names, {@code iss} must be exactly {@code {issuer}/realms/{tenant}} for the request's tenant
 * ({@code eureka.keycloak-issuer-url}, by default {@code eureka.keycloak-url}), and the keys come
 * from the configured Keycloak: a token cannot point the gateway at keys of its choosing. Only an
 * access token is taken ({@code typ} {@code Bearer}): Keycloak refuses its ID and refresh tokens as
 * bearer tokens (401), and the sidecar, which checks no {@code typ}, leaves the refusal to it; here
 * it comes before the decision cache, which would otherwise serve an ID token the grant cached for
 * its session. A failure is a 401 naming what is wrong.
 */
public final class KeycloakTokens {

  private static final int MAX_TOKEN_LENGTH = 16 * 1024;

  /** The {@code typ} of Keycloak's access tokens (an ID token's is {@code ID}). */
  private static final String BEARER = "Bearer";

  private final EurekaOptions options;
  private final RealmKeys keys;
  private final Clock clock;

  /**
   * @param scheduler times the key sets and schedules their fetches
   * @param clock the wall clock {@code exp} is compared with
   */
  public KeycloakTokens(
      EurekaCalls keycloak, EurekaOptions options, Timing scheduler, Clock clock) {
    this.options = options;
    this.keys = new RealmKeys(keycloak, options, scheduler);
    this.clock = clock;
  }

  /**
   * @param tenant the request's tenant, whose realm must have issued the token
   * @return the checked token; failed with a 401 {@link HttpError} saying why it is refused, or 503
   *     if the realm's keys cannot be read
   */
  public Future<KeycloakToken> verify(String tenant, String token) {
    JsonObject header;
    JsonObject payload;
    try {
      String[] parts = parts(token);
      header = json(parts[0]);
      payload = json(parts[1]);
    } catch (RuntimeException e) {
      return Future.failedFuture(refused("the token is not a JWT"));
    }
    String issuer = options.issuer(tenant);
    if (!issuer.equals(payload.getValue("iss"))) {
      return Future.failedFuture(
          refused("the token is not one of Keycloak realm " + tenant + " (its iss differs)"));
    }
    if (!"RS256".equals(header.getValue("alg"))
        || !(header.getValue("kid") instanceof String kid)) {
      return Future.failedFuture(refused("the token is not signed with RS256 and a key id"));
    }
    return keys.key(tenant, kid).map(key -> checked(token, key, issuer, tenant));
  }

  /**
   * @return whether {@code token} claims to come from the configured Keycloak (unverified): such a
   *     token is refused on an Okapi tenant
   */
  public static boolean fromKeycloak(String token, EurekaOptions options) {
    if (!options.enabled() || token == null) {
      return false;
    }
    try {
      Object iss = json(parts(token)[1]).getValue("iss");
      return iss instanceof String s
          && (s.startsWith(options.keycloakUrl() + "/realms/")
              || s.startsWith(options.issuerUrl() + "/realms/"));
    } catch (RuntimeException e) {
      return false;
    }
  }

  private KeycloakToken checked(String token, PublicKey key, String issuer, String tenant) {
    Claims claims;
    try {
      claims =
          Jwts.parser()
              .verifyWith(key)
              .requireIssuer(issuer)
              .clockSkewSeconds(options.clockSkew().toSeconds())
              .clock(() -> Date.from(clock.instant()))
              .build()
              .parseSignedClaims(token)
              .getPayload();
    } catch (JwtException | IllegalArgumentException e) {
      throw refused("the token is not valid: " + e.getMessage());
    }
    if (claims.getExpiration() == null) {
      throw refused("the token has no exp");
    }
    if (!BEARER.equals(claims.get("typ"))) {
      throw refused(
          "the token is not an access token (typ "
              + (claims.get("typ") instanceof String typ ? typ : "missing")
              + ", not Bearer)");
    }
    return new KeycloakToken(
        token,
        tenant,
        claims.get("user_id", String.class),
        claims.get("sid", String.class),
        claims.getSubject(),
        claims.getExpiration().toInstant().getEpochSecond());
  }

  private static String[] parts(String token) {
    if (token.length() > MAX_TOKEN_LENGTH) {
      throw new IllegalArgumentException("too long");
    }
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException("not three parts");
    }
    return parts;
  }

  private static JsonObject json(String part) {
    return new JsonObject(new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8));
  }

  private static AuthRefusal refused(String why) {
    return EurekaErrors.unauthorized(why);
  }
}
