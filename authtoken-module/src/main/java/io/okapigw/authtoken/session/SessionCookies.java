package io.okapigw.authtoken.session;

import io.netty.handler.codec.DateFormatter;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.login.Session;
import io.vertx.core.http.Cookie;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The session cookies exactly as FOLIO's mod-login (v7.13) writes them: {@code folioAccessToken}
 * ({@code Path=<base>/}) and {@code folioRefreshToken} ({@code Path=<base>/authn}), each {@code
 * Max-Age} = its token's remaining lifetime, {@code Secure}, {@code HttpOnly}, {@code SameSite} as
 * configured; {@code <base>} is the path of the gateway's URL ({@code X-Okapi-Url}), empty for a
 * gateway at the root. Logout answers both expired, with mod-login's very attributes.
 */
final class SessionCookies {

  /** Holds the access token; the gateway reads the token from it. */
  static final String ACCESS = OkapiHeaders.ACCESS_TOKEN_COOKIE;

  /** Holds the refresh token; sent by the browser only to {@code /authn/...}. */
  static final String REFRESH = "folioRefreshToken";

  private static final String EXPIRED = "Thu, 01 Jan 1970 00:00:00 GMT";
  private static final Pattern SAFE_PATH = Pattern.compile("[A-Za-z0-9/._~%!$&'()*+,=:@-]*");

  private final SameSite sameSite;
  private final Clock clock;

  SessionCookies(SameSite sameSite, Clock clock) {
    this.sameSite = sameSite;
    this.clock = clock;
  }

  /**
   * @param okapiUrl the gateway's URL as the request's {@code X-Okapi-Url} names it, or null
   * @return the two {@code Set-Cookie} values of a login or refresh
   */
  List<String> issue(Session session, String okapiUrl) {
    String base = basePath(okapiUrl);
    return List.of(
        cookie(ACCESS, session.access().token(), session.access().expiresAt(), base + "/"),
        cookie(REFRESH, session.refreshToken(), session.refreshExpiresAt(), base + "/authn"));
  }

  /**
   * @return the two {@code Set-Cookie} values that make a browser drop the session's cookies
   */
  List<String> expire(String okapiUrl) {
    String base = basePath(okapiUrl);
    return List.of(
        ACCESS + "=; SameSite=None; Secure; Path=" + base + "/; Expires=" + EXPIRED,
        REFRESH + "=; SameSite=None; Secure; Path=" + base + "/authn; Expires=" + EXPIRED);
  }

  /**
   * @return mod-login's answer body: {@code {"accessTokenExpiration", "refreshTokenExpiration"}},
   *     ISO-8601 instants
   */
  static JsonObject expirations(Session session) {
    return new JsonObject()
        .put("accessTokenExpiration", session.access().expiresAt().toString())
        .put("refreshTokenExpiration", session.refreshExpiresAt().toString());
  }

  private String cookie(String name, String value, Instant expires, String path) {
    // RFC 6265: Max-Age at least 1 (mod-login refuses to write less)
    long now = clock.instant().getEpochSecond();
    long maxAge = Math.max(1, expires.getEpochSecond() - now);
    String encoded =
        Cookie.cookie(name, value)
            .setSecure(true)
            .setPath(path)
            .setHttpOnly(true)
            .setSameSite(sameSite.attribute())
            .encode();
    // Max-Age and Expires where Netty's encoder puts them, Expires from our clock (Netty's
    // encoder reads the system's)
    int attributes = encoded.indexOf(';');
    return encoded.substring(0, attributes)
        + "; Max-Age="
        + maxAge
        + "; Expires="
        + DateFormatter.format(new Date((now + maxAge) * 1000))
        + encoded.substring(attributes);
  }

  /**
   * The path of the gateway's URL without a trailing {@code /} (mod-login's rule); empty for none,
   * and for a path with characters a cookie attribute must not carry.
   */
  static String basePath(String okapiUrl) {
    if (okapiUrl == null) {
      return "";
    }
    try {
      String path = new URI(okapiUrl.trim()).getRawPath();
      if (path == null || !SAFE_PATH.matcher(path).matches()) {
        return "";
      }
      return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    } catch (URISyntaxException e) {
      return "";
    }
  }
}
