package io.okapigw.authtoken.throttle;

import io.okapigw.config.Setting;

/**
 * Which headers a trusted proxy in front of the module records its peer in ({@link
 * #PROXY_HEADERS}): the hops from the client to the module, the module's own peer last.
 */
public enum ProxyHeaders {
  /**
   * {@code X-Forwarded-For}, then {@code X-Okapi-request-ip}: behind the gateway (or Okapi), which
   * writes its peer into {@code X-Okapi-request-ip}, dropping any a client sent, and passes {@code
   * X-Forwarded-For} on as a load balancer in front of it wrote it.
   */
  OKAPI,
  /** {@code X-Forwarded-For} only: behind a proxy that appends its peer there. */
  XFORWARDED,
  /** {@code Forwarded}'s {@code for=} (RFC 7239) only: behind a proxy that appends it there. */
  FORWARDED;

  /** Setting {@code login.proxy-headers}. */
  public static final Setting<ProxyHeaders> PROXY_HEADERS =
      Setting.choice("login.proxy-headers", OKAPI)
          .about(
              "where a trusted proxy (`login.trusted-proxies`) writes the address it received the"
                  + " login from")
          .details(
              "`okapi`: `X-Forwarded-For`, then `X-Okapi-request-ip` (our gateway and Okapi write"
                  + " it); `xforwarded`: `X-Forwarded-For` only; `forwarded`: RFC 7239"
                  + " `Forwarded` only. See [login throttling](authtoken.md#login-throttling).");
}
