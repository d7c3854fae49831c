package io.okapigw.core.proxy;

import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.routing.RoutingTables;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.CorsHandler;
import java.util.Optional;

/**
 * CORS as Okapi 6.1.5 answers it, for browsers (Stripes) calling from another origin: any origin,
 * with credentials; methods PUT, PATCH, DELETE, GET, POST; Okapi's allowed and exposed headers;
 * preflights answered 204 and cached by the browser for 2 hours. A preflight through {@code
 * /_/invoke/tenant/{tenant}/...} for a handler with {@code delegateCORS} goes to the module
 * instead.
 */
public final class CorsPolicy {

  /** The header that makes a request a CORS request. */
  public static final String ORIGIN = "Origin";

  private static final int MAX_AGE_SECONDS = 7200;

  private final RoutingTables tables;
  private final ProxyHandler proxy;
  private final CorsHandler cors =
      CorsHandler.create()
          .addOriginWithRegex(".*")
          .allowedMethod(HttpMethod.PUT)
          .allowedMethod(HttpMethod.PATCH)
          .allowedMethod(HttpMethod.DELETE)
          .allowedMethod(HttpMethod.GET)
          .allowedMethod(HttpMethod.POST)
          .allowedHeader(HttpHeaders.CONTENT_TYPE.toString())
          .allowedHeader(OkapiHeaders.TENANT)
          .allowedHeader(OkapiHeaders.TOKEN)
          .allowedHeader(OkapiHeaders.AUTHORIZATION)
          .allowedHeader(OkapiHeaders.REQUEST_ID)
          .allowedHeader(OkapiHeaders.MODULE_ID)
          .allowedHeader("Credentials")
          .exposedHeader(HttpHeaders.LOCATION.toString())
          .exposedHeader("X-Okapi-Trace")
          .exposedHeader(OkapiHeaders.TOKEN)
          .exposedHeader(OkapiHeaders.AUTHORIZATION)
          .exposedHeader(OkapiHeaders.REQUEST_ID)
          .exposedHeader(OkapiHeaders.MODULE_ID)
          .exposedHeader("Credentials")
          .maxAgeSeconds(MAX_AGE_SECONDS)
          .allowCredentials(true);

  /**
   * @param tables where a delegated preflight's handler is looked up
   * @param proxy sends a delegated preflight to its module
   */
  public CorsPolicy(RoutingTables tables, ProxyHandler proxy) {
    this.tables = tables;
    this.proxy = proxy;
  }

  /**
   * Route handler: answers preflights and adds CORS headers before the next handler, or sends a
   * delegated preflight to its module.
   */
  public void handle(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    Optional<InvokePath> delegated =
        InvokePath.parse(request.path()).filter(invoke -> delegates(request, invoke));
    if (delegated.isPresent()) {
      proxy.delegatePreflight(request, delegated.get());
    } else {
      cors.handle(ctx);
    }
  }

  private boolean delegates(HttpServerRequest request, InvokePath invoke) {
    String requested = request.getHeader(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD);
    if (request.method() != HttpMethod.OPTIONS || requested == null) {
      return false;
    }
    return tables
        .forTenant(invoke.tenant())
        .flatMap(
            table ->
                table.match(requested, invoke.path(), request.getHeader(OkapiHeaders.MODULE_ID)))
        .map(pipeline -> pipeline.handler().entry().delegateCors())
        .orElse(false);
  }
}
