package io.okapigw.core.admin;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.registry.TenantDescriptor;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;

/**
 * The operator's part of the admin API, answered only for the {@code supertenant}: whatever a
 * tenant's user holds ({@code okapi.all} included), a request for another tenant gets 403 naming
 * the rule for what runs processes or reads their environment ({@code /_/deployment}, {@code
 * /_/env}, {@code deploy=true}), changes what every tenant shares ({@code /_/discovery}, the module
 * registry, {@code /_/proxy/pull}, the auth cache, creating, changing or deleting tenants) or acts
 * on another tenant ({@code /_/proxy/tenants/{other}/...}). Okapi 6.1.5 serves all of them to any
 * tenant with the okapi module enabled (docs/protocol.md, "The operator's admin calls").
 *
 * <p>It runs before any other admin route, on the path the router routes by ({@link
 * RoutingContext#normalizedPath()}), for the tenant the proxy routed the request for ({@link
 * InternalAdmin} sets {@code X-Okapi-Tenant} to it; absent counts as not the supertenant).
 */
final class SupertenantOnly implements Handler<RoutingContext> {

  @Override
  public void handle(RoutingContext ctx) {
    String tenant = ctx.request().getHeader(OkapiHeaders.TENANT);
    if (TenantDescriptor.SUPERTENANT.equals(tenant)) {
      ctx.next();
      return;
    }
    String method = ctx.request().method().name();
    String path = ctx.normalizedPath();
    Optional<String> reason = refusal(method, path, params(ctx), tenant);
    if (reason.isPresent()) {
      // the body, unread, flows on and is dropped (as after an auth refusal), so the
      // connection serves its next request
      ctx.request().resume();
      ctx.fail(
          new HttpError(
              403,
              method
                  + " "
                  + path
                  + " is the operator's ("
                  + reason.get()
                  + "): only users of the "
                  + TenantDescriptor.SUPERTENANT
                  + " may call it, whatever permissions a user of tenant "
                  + tenant
                  + " holds"));
      return;
    }
    ctx.next();
  }

  private static MultiMap params(RoutingContext ctx) {
    try {
      return ctx.queryParams();
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("malformed query string (a %-escape that does not decode?)");
    }
  }

  /**
   * @param method the request's method
   * @param path its normalized path
   * @param params its query parameters
   * @param tenant the tenant it is for, or {@code null}
   * @return why only the supertenant's users may make it; empty if anyone allowed may
   */
  static Optional<String> refusal(String method, String path, MultiMap params, String tenant) {
    if (TenantDescriptor.SUPERTENANT.equals(tenant)) {
      return Optional.empty();
    }
    boolean read = "GET".equals(method) || "HEAD".equals(method);
    if (under(path, "/_/env")) {
      return Optional.of("it reads or changes the environment deployed modules get");
    }
    if (under(path, "/_/deployment")) {
      return Optional.of("it runs or stops processes on the gateway's hosts");
    }
    if (params.getAll("deploy").stream().anyMatch(v -> !"false".equals(v))) {
      return Optional.of("deploy runs processes on the gateway's hosts");
    }
    if (under(path, "/_/proxy/pull")) {
      return Optional.of("it fetches descriptors from another registry");
    }
    if (!read && under(path, "/_/discovery")) {
      return Optional.of("it changes where every tenant's modules are reached");
    }
    if (!read
        && (under(path, "/_/proxy/modules")
            || under(path, "/_/proxy/import")
            || under(path, "/_/proxy/cleanup"))) {
      return Optional.of("it changes the module registry every tenant shares");
    }
    if (!read && under(path, "/_/proxy/auth-cache")) {
      return Optional.of("it drops cached decisions of every tenant");
    }
    return tenants(path, read, tenant);
  }

  private static Optional<String> tenants(String path, boolean read, String tenant) {
    if (!under(path, "/_/proxy/tenants")) {
      return Optional.empty();
    }
    String[] segments = path.substring("/_/proxy/tenants".length()).split("/");
    if (segments.length < 2) {
      return read ? Optional.empty() : Optional.of("it creates tenants");
    }
    String target = QueryStringDecoder.decodeComponent(segments[1]);
    if (!target.equals(tenant)) {
      return Optional.of("it acts on another tenant than " + tenant);
    }
    if (segments.length == 2 && !read) {
      return Optional.of("it changes or deletes a tenant");
    }
    return Optional.empty();
  }

  private static boolean under(String path, String prefix) {
    return path.equals(prefix) || path.startsWith(prefix + "/");
  }
}
