package io.okapigw.folio.module;

import io.vertx.core.MultiMap;
import io.vertx.core.http.RequestOptions;

/**
 * The Okapi headers a module received and passes on when it calls another module.
 *
 * @param okapiUrl X-Okapi-Url: where to call the gateway
 * @param tenant X-Okapi-Tenant
 * @param token X-Okapi-Token (the module token), or null
 * @param requestId X-Okapi-Request-Id, or null
 * @param traceparent W3C {@code traceparent} (the gateway's span of the call to this module), or
 *     null: passed on so that the module's calls join the request's trace
 * @param tracestate W3C {@code tracestate}, or null
 */
public record OkapiHeaders(
    String okapiUrl,
    String tenant,
    String token,
    String requestId,
    String traceparent,
    String tracestate) {

  /** Where modules call the gateway. */
  public static final String URL = "X-Okapi-Url";

  /** The tenant of the request. */
  public static final String TENANT = "X-Okapi-Tenant";

  /** The caller's token; for a module-to-module call, the calling module's token. */
  public static final String TOKEN = "X-Okapi-Token";

  /** The request id; the gateway appends its own for each module-to-module hop. */
  public static final String REQUEST_ID = "X-Okapi-Request-Id";

  /** W3C trace context: the span this request is part of. */
  public static final String TRACEPARENT = "traceparent";

  /** W3C trace context: vendors' state beside it. */
  public static final String TRACESTATE = "tracestate";

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
    return new OkapiHeaders(
        base,
        headers.get(TENANT),
        headers.get(TOKEN),
        headers.get(REQUEST_ID),
        headers.get(TRACEPARENT),
        headers.get(TRACESTATE));
  }

  RequestOptions apply(RequestOptions options) {
    options.putHeader(TENANT, tenant).putHeader("Accept", "application/json, text/plain");
    if (token != null) {
      options.putHeader(TOKEN, token);
    }
    if (requestId != null) {
      options.putHeader(REQUEST_ID, requestId);
    }
    if (traceparent != null) {
      options.putHeader(TRACEPARENT, traceparent);
      if (tracestate != null) {
        options.putHeader(TRACESTATE, tracestate);
      }
    }
    return options;
  }
}
