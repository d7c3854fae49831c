package io.okapigw.folio.module;

import io.vertx.core.MultiMap;
import io.vertx.core.http.RequestOptions;

/**
 * The Okapi headers a module received and passes on when it calls another module: only those, as
 * FOLIO's modules do (okapi-common's {@code OkapiClient}, mod-circulation's client): no W3C {@code
 * traceparent}. The gateway puts such a call back into the request's trace by the {@code
 * X-Okapi-Request-Id} it sent.
 *
 * @param okapiUrl X-Okapi-Url: where to call the gateway
 * @param tenant X-Okapi-Tenant
 * @param token X-Okapi-Token (the module token), or null
 * @param requestId X-Okapi-Request-Id, or null
 */
public record OkapiHeaders(String okapiUrl, String tenant, String token, String requestId) {

  /** Where modules call the gateway. */
  public static final String URL = "X-Okapi-Url";

  /** The tenant of the request. */
  public static final String TENANT = "X-Okapi-Tenant";

  /** The caller's token; for a module-to-module call, the calling module's token. */
  public static final String TOKEN = "X-Okapi-Token";

  /** The request id; the gateway appends its own for each module-to-module hop. */
  public static final String REQUEST_ID = "X-Okapi-Request-Id";

  /**
   * @throws ModuleError 400 if X-Okapi-Url is missing
   */
  static OkapiHeaders from(MultiMap headers) {
    String url = headers.get(URL);
    if (url == null || url.isBlank()) {
      throw ModuleError.badRequest(
          "missing " + URL + " header: this module calls other " + "modules through the gateway");
    }
    String base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    return new OkapiHeaders(base, headers.get(TENANT), headers.get(TOKEN), headers.get(REQUEST_ID));
  }

  RequestOptions apply(RequestOptions options) {
    options.putHeader(TENANT, tenant).putHeader("Accept", "application/json, text/plain");
    if (token != null) {
      options.putHeader(TOKEN, token);
    }
    if (requestId != null) {
      options.putHeader(REQUEST_ID, requestId);
    }
    return options;
  }
}
