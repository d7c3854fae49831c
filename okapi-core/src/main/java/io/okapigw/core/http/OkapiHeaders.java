package io.okapigw.core.http;

import io.vertx.core.MultiMap;

/** The Okapi protocol's headers, and which of them may cross which boundary. */
public final class OkapiHeaders {

  public static final String TENANT = "X-Okapi-Tenant";
  public static final String TOKEN = "X-Okapi-Token";

  /**
   * Eureka's service token on a module's call to another module (a client-credentials token of
   * {@code sidecar-module-access-client}); the gateway writes it, never a client.
   */
  public static final String SYSTEM_TOKEN = "X-System-Token";

  public static final String URL = "X-Okapi-Url";

  /** Okapi's URL of the module called; written by Okapi, never by a client. */
  public static final String URL_TO = "X-Okapi-Url-to";

  public static final String REQUEST_ID = "X-Okapi-Request-Id";
  public static final String USER_ID = "X-Okapi-User-Id";
  public static final String PERMISSIONS = "X-Okapi-Permissions";
  public static final String PERMISSIONS_REQUIRED = "X-Okapi-Permissions-Required";
  public static final String PERMISSIONS_DESIRED = "X-Okapi-Permissions-Desired";
  public static final String MODULE_PERMISSIONS = "X-Okapi-Module-Permissions";
  public static final String MODULE_TOKENS = "X-Okapi-Module-Tokens";
  public static final String MODULE_ID = "X-Okapi-Module-Id";
  public static final String FILTER = "X-Okapi-Filter";
  public static final String EXTRA_PERMISSIONS = "X-Okapi-Extra-Permissions";
  public static final String HANDLER_RESULT = "X-Okapi-Handler-Result";
  public static final String HANDLER_HEADERS = "X-Okapi-Handler-Headers";
  public static final String AUTH_RESULT = "X-Okapi-Auth-Result";
  public static final String AUTH_HEADERS = "X-Okapi-Auth-Headers";
  public static final String MATCH_PATH_PATTERN = "X-Okapi-Match-Path-Pattern";

  /** A module's answer that ends the pipeline with it (Okapi's {@code X-Okapi-Stop}). */
  public static final String STOP = "X-Okapi-Stop";

  /** Spelled as Okapi 6.1.5 sends them (header names are case-insensitive). */
  public static final String REQUEST_IP = "X-Okapi-request-ip";

  public static final String REQUEST_TIMESTAMP = "X-Okapi-request-timestamp";
  public static final String REQUEST_METHOD = "X-Okapi-request-method";
  public static final String AUTHORIZATION = "Authorization";

  /**
   * Headers never forwarded to modules or clients: RFC 9110 hop-by-hop headers, plus Host (the
   * client sets it for the upstream) and Expect (the gateway has already answered 100-continue);
   * and the headers only the gateway and the auth filter exchange.
   */
  public static final HeaderNames NOT_FORWARDED =
      HeaderNames.of(
          "Connection",
          "Keep-Alive",
          "Proxy-Authenticate",
          "Proxy-Authorization",
          "Proxy-Connection",
          "TE",
          "Trailer",
          "Transfer-Encoding",
          "Upgrade",
          "Host",
          "Expect",
          MODULE_TOKENS,
          MODULE_PERMISSIONS,
          PERMISSIONS_REQUIRED,
          PERMISSIONS_DESIRED,
          EXTRA_PERMISSIONS,
          FILTER);

  private OkapiHeaders() {}

  /**
   * Copies headers that may travel to the next hop: no hop-by-hop headers (including those the
   * Connection header names) and no auth-only headers. Headers already in {@code to} stay.
   */
  public static void copyForwardable(MultiMap from, MultiMap to) {
    NOT_FORWARDED.copyAllBut(from, to);
  }
}
