package io.okapigw.authtoken.session;

import io.vertx.core.http.CookieSameSite;

/**
 * The {@code SameSite} attribute of the session cookies (setting {@code cookie-same-site}), as
 * FOLIO's mod-login sets it from {@code LOGIN_COOKIE_SAMESITE} (default {@code Lax}).
 */
public enum SameSite {
  /** Sent only with requests from the gateway's own site. */
  STRICT,
  /** Sent with requests from the same site (any port of {@code localhost} is one site). */
  LAX,
  /** Sent with cross-site requests too (a UI on another site; needs HTTPS). */
  NONE;

  CookieSameSite attribute() {
    return CookieSameSite.valueOf(name());
  }
}
