package io.okapigw.core.proxy;

import io.okapigw.core.http.HttpError;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;

/**
 * {@code /_/invoke/tenant/{tenant}/{path}}: Okapi's way to call a module without a tenant header
 * (identity providers' callbacks, links in e-mails). The request is proxied for {@code tenant}
 * as a request for {@code /{path}} with the same query.
 *
 * @param tenant the tenant from the path
 * @param path the module path it stands for
 */
public record InvokePath(String tenant, String path) {

  static final String PREFIX = "/_/invoke/tenant/";

  /** @return the tenant and path, or empty if {@code requestPath} is not an invoke path */
  static Optional<InvokePath> parse(String requestPath) {
    if (!requestPath.startsWith(PREFIX)) {
      return Optional.empty();
    }
    int slash = requestPath.indexOf('/', PREFIX.length());
    if (slash <= PREFIX.length()) {
      return Optional.empty();
    }
    return Optional.of(new InvokePath(requestPath.substring(PREFIX.length(), slash),
        requestPath.substring(slash)));
  }

  /** Adds the invoke route to the admin router; call before the admin API's catch-all. */
  public static void mount(Router router, ProxyHandler proxy) {
    router.route(PREFIX + "*").handler(ctx -> invoke(ctx, proxy));
  }

  private static void invoke(RoutingContext ctx, ProxyHandler proxy) {
    InvokePath invoke = parse(ctx.request().path()).orElseThrow(() -> HttpError.badRequest(
        "expected /_/invoke/tenant/{tenant}/{path}, was " + ctx.request().path()));
    RequestTarget target = new RequestTarget(invoke.path(), ctx.request().query());
    if (Boolean.TRUE.equals(ctx.get(CorsPolicy.DELEGATED))) {
      proxy.delegatePreflight(ctx.request(), invoke.tenant(), target);
    } else {
      proxy.invoke(ctx.request(), invoke.tenant(), target);
    }
  }
}
