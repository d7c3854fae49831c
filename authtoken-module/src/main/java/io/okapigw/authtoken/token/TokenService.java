package io.okapigw.authtoken.token;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.jsonwebtoken.Claims;
import io.jsonwebtoken.ExpiredJwtException;
import io.jsonwebtoken.JwtBuilder;
import io.jsonwebtoken.JwtException;
import io.jsonwebtoken.JwtParser;
import io.jsonwebtoken.Jwts;
import io.jsonwebtoken.PrematureJwtException;
import io.jsonwebtoken.UnsupportedJwtException;
import io.jsonwebtoken.security.SignatureException;
import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.store.UserRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.TreeSet;
import javax.crypto.SecretKey;

/**
 * Issues and verifies the module's JWTs with JJWT: HS256 only (the parser accepts no other
 * algorithm, so {@code alg: none} and algorithm switching fail), {@code exp} required, {@code
 * exp}/{@code nbf} checked against the injected clock without skew. Verified tokens and issued
 * module tokens are remembered per signing key (bounded), so the filter's hot path does not
 * re-parse and re-sign; expiry is still checked every time.
 *
 * <p>Access tokens: {@code sub} (username), {@code user_id}, {@code tenant}, {@code type:
 * "access"}, {@code sid} (login session), {@code iat}, {@code exp}. Module tokens: {@code sub},
 * {@code user_id}, {@code tenant}, {@code type: "module"}, {@code sid}, {@code extra_permissions}
 * (sorted, unexpanded), {@code exp} of the user token; no {@code iat} or id, so the same inputs
 * give the same string.
 */
public final class TokenService {
  /** {@code sub} of the token for a request that carried none. */
  public static final String ANONYMOUS = "UNDEFINED_USER";

  /** {@code type} of an access token. */
  public static final String ACCESS = "access";

  /** {@code type} of a module token. */
  public static final String MODULE = "module";

  /** The anonymous token's expiry is rounded up to this, so it is stable for that long. */
  static final Duration ANONYMOUS_WINDOW = Duration.ofMinutes(1);

  /** Most verified tokens and issued module tokens remembered (each). */
  static final long CACHE_SIZE = 50_000;

  private final SigningKey key;
  private final Clock clock;
  private final Duration ttl;
  private final int maxLength;
  private volatile Verifier verifier;
  private final Cache<String, Verified> verified =
      Caffeine.newBuilder().maximumSize(CACHE_SIZE).executor(Runnable::run).build();
  private final Cache<ModuleTokenKey, String> moduleTokens =
      Caffeine.newBuilder().maximumSize(CACHE_SIZE).executor(Runnable::run).build();

  /**
   * @param key signing key (may rotate)
   * @param clock clock for {@code iat}/{@code exp} and for checking them
   * @param options the access token lifetime and the longest token accepted
   */
  public TokenService(SigningKey key, Clock clock, TokenOptions options) {
    this.key = key;
    this.clock = clock;
    this.ttl = options.ttl();
    this.maxLength = options.maxLength();
  }

  /**
   * @param user the user who logged in
   * @param sessionId the login session
   * @return a new access token and its expiry
   */
  public IssuedToken issueAccess(UserRecord user, String sessionId) {
    Instant now = clock.instant();
    Instant exp = now.plus(ttl);
    String token =
        Jwts.builder()
            .subject(user.username())
            .claim("user_id", user.id())
            .claim("tenant", user.tenant())
            .claim("type", ACCESS)
            .claim("sid", sessionId)
            .issuedAt(Date.from(now))
            .expiration(Date.from(exp))
            .signWith(key.current(), Jwts.SIG.HS256)
            .compact();
    return new IssuedToken(token, Instant.ofEpochSecond(exp.getEpochSecond()));
  }

  /**
   * @param caller claims of the request's (verified) token
   * @param permissions the module permissions of the called module
   * @return a module token for the same user, session and expiry with these extra permissions
   */
  public String moduleToken(TokenClaims caller, Collection<String> permissions) {
    List<String> sorted = List.copyOf(new TreeSet<>(permissions));
    return moduleTokens.get(
        new ModuleTokenKey(key.current(), caller, sorted),
        k ->
            sign(
                Jwts.builder()
                    .subject(caller.subject())
                    .claim("user_id", caller.userId())
                    .claim("tenant", caller.tenant()),
                caller.sessionId(),
                sorted,
                caller.expiresAt()));
  }

  /**
   * The token for a request without token: no user, the given extra permissions, and an expiry of
   * now + TTL rounded up to the minute (so it is the same string for a minute).
   *
   * @param tenant tenant id
   * @param permissions extra permissions (empty for the request's own token)
   * @return the token
   */
  public String anonymousToken(String tenant, Collection<String> permissions) {
    long window = ANONYMOUS_WINDOW.toSeconds();
    long exp = (clock.instant().getEpochSecond() / window + 1) * window + ttl.toSeconds();
    return anonymous(tenant, permissions, Instant.ofEpochSecond(exp));
  }

  /**
   * A token of the same kind as {@link #anonymousToken(String, Collection)} (no user, only the
   * given extra permissions) that expires after {@code lifetime}, capped at the token TTL. The
   * module calls the gateway with it (auth-cache invalidation), so the module's own filter grants
   * that call.
   *
   * @param tenant tenant id
   * @param permissions extra permissions
   * @param lifetime how long it is valid (whole seconds; at most the token TTL)
   * @return the token
   */
  public String anonymousToken(String tenant, Collection<String> permissions, Duration lifetime) {
    long seconds = Math.min(lifetime.toSeconds(), ttl.toSeconds());
    return anonymous(
        tenant, permissions, Instant.ofEpochSecond(clock.instant().getEpochSecond() + seconds));
  }

  private String anonymous(String tenant, Collection<String> permissions, Instant exp) {
    return sign(
        Jwts.builder().subject(ANONYMOUS).claim("tenant", tenant),
        null,
        List.copyOf(new TreeSet<>(permissions)),
        exp);
  }

  /**
   * @param token a token from a request
   * @return its claims
   * @throws ApiException 401 naming the problem: too long, malformed, bad signature, unsupported
   *     algorithm, expired, not yet valid, missing claims, a date claim that is not a number
   */
  public TokenClaims verify(String token) {
    if (token.length() > maxLength) {
      throw ApiException.unauthorized("token too large (over " + maxLength + " characters)");
    }
    SecretKey current = key.current();
    Verified known = verified.getIfPresent(token);
    TokenClaims claims =
        known != null && known.key() == current ? known.claims() : parse(token, current);
    if (!claims.expiresAt().isAfter(clock.instant())) {
      // RFC 7519 4.1.4: valid only before exp; JJWT still accepts the exp second itself
      throw ApiException.unauthorized("token expired");
    }
    return claims;
  }

  /** Full verification; the result is remembered for this key (expiry is checked at every use). */
  private TokenClaims parse(String token, SecretKey current) {
    Claims claims;
    try {
      claims = verifier(current).parser().parseSignedClaims(token).getPayload();
    } catch (ExpiredJwtException e) {
      throw ApiException.unauthorized("token expired");
    } catch (PrematureJwtException e) {
      throw ApiException.unauthorized("token not yet valid");
    } catch (SignatureException e) {
      throw ApiException.unauthorized("invalid token signature");
    } catch (UnsupportedJwtException e) {
      throw ApiException.unauthorized("unsupported token: only HS256-signed JWTs are accepted");
    } catch (JwtException | IllegalArgumentException e) {
      throw ApiException.unauthorized("malformed token");
    }
    NumericDates.check(token);
    TokenClaims read = TokenClaimsReader.read(claims);
    verified.put(token, new Verified(current, read));
    return read;
  }

  private String sign(JwtBuilder builder, String sessionId, List<String> sorted, Instant exp) {
    return builder
        .claim("type", MODULE)
        .claim("sid", sessionId)
        .claim("extra_permissions", sorted)
        .expiration(Date.from(exp))
        .signWith(key.current(), Jwts.SIG.HS256)
        .compact();
  }

  private Verifier verifier(SecretKey current) {
    Verifier v = verifier;
    if (v == null || v.key() != current) {
      JwtParser parser =
          Jwts.parser()
              .verifyWith(current)
              .sig()
              .clear()
              .add(Jwts.SIG.HS256)
              .and()
              .clock(() -> Date.from(clock.instant()))
              .build();
      v = new Verifier(current, parser);
      verifier = v;
    }
    return v;
  }

  /**
   * An issued access token.
   *
   * @param token the JWT
   * @param expiresAt its {@code exp}
   */
  public record IssuedToken(String token, Instant expiresAt) {
    @Override
    public String toString() {
      return "IssuedToken[expiresAt=" + expiresAt + "]";
    }
  }

  private record Verifier(SecretKey key, JwtParser parser) {}

  private record Verified(SecretKey key, TokenClaims claims) {}

  private record ModuleTokenKey(SecretKey key, TokenClaims caller, List<String> permissions) {}
}
