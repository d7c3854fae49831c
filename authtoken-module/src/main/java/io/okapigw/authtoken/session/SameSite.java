package io.okapigw.authtoken.session;

import io.okapigw.config.Setting;
import io.vertx.core.http.CookieSameSite;

/**
 * The {@code SameSite} attribute of the session cookies ({@link #COOKIE_SAME_SITE}), as FOLIO's
 * mod-login sets it from {@code LOGIN_COOKIE_SAMESITE} (default {@code Lax}).
 */
public enum SameSite {
  /** Sent only with requests from the gateway's own site. */
  STRICT,
  /** Sent with requests from the same site (any port of {@code localhost} is one site). */
  LAX,
  /** Sent with cross-site requests too (a UI on another site; needs HTTPS). */
  NONE;

  /** Setting {@code cookie-same-site}. */
  public static final Setting<SameSite> COOKIE_SAME_SITE =
      Setting.choice("cookie-same-site", LAX)
          .about(
              "`SameSite` of the `folioAccessToken` and `folioRefreshToken` cookies of"
                  + " `/authn/login-with-expiry` (mod-login's `LOGIN_COOKIE_SAMESITE`)")
          .details(
              "`none` lets a UI on another site send them (HTTPS only): see"
                  + " [Stripes in front of the gateway](operations.md#stripes-in-front-of-the-gateway).");

  CookieSameSite attribute() {
    return CookieSameSite.valueOf(name());
  }
}
