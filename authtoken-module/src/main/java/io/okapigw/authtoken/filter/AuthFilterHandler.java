package io.okapigw.authtoken.filter;

import io.okapigw.authtoken.http.OkapiHeaders;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The auth filter endpoint. A request is an auth-filter call, whatever its method and path (the
 * gateway sends the original ones), when it carries
 *
 * <ul>
 *   <li>{@code X-Okapi-Module-Permissions}: Okapi sends it to the auth filter on every proxied
 *       request ({@code {}} when no module has any) and strips it from every other request and from
 *       what clients send; Okapi 6 sends no {@code X-Okapi-Filter} to the auth filter; or
 *   <li>{@code X-Okapi-Filter} starting with {@code auth}: older gateways, and Okapi's system calls
 *       (e.g. before {@code POST /_/tenantPermissions}), which may omit the module permissions.
 * </ul>
 *
 * Nothing else makes a filter call: every other request (a handler call, which Okapi sends without
 * those headers, or a {@code pre}/{@code post} filter call) goes on to the module's own routes.
 * Answers 202 with {@code X-Okapi-Token}, {@code X-Okapi-User-Id}, {@code X-Okapi-Permissions}
 * (JSON array) and {@code X-Okapi-Module-Tokens}, or 400/401/403 with a message.
 */
public final class AuthFilterHandler implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(AuthFilterHandler.class);

  private final AuthFilter filter;

  /**
   * @param filter the decision logic
   */
  public AuthFilterHandler(AuthFilter filter) {
    this.filter = filter;
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (!isFilterCall(ctx.request().headers())) {
      ctx.next();
      return;
    }
    FilterRequest request = FilterRequest.parse(ctx.request().headers());
    filter
        .decide(request)
        .onSuccess(decision -> respond(ctx, request, decision))
        .onFailure(ctx::fail);
  }

  /**
   * @param headers request headers
   * @return whether the request is an auth-filter call (see the class comment)
   */
  public static boolean isFilterCall(MultiMap headers) {
    if (headers.contains(OkapiHeaders.MODULE_PERMISSIONS)) {
      return true;
    }
    String phase = headers.get(OkapiHeaders.FILTER);
    return phase != null && phase.startsWith("auth");
  }

  private static void respond(RoutingContext ctx, FilterRequest request, FilterDecision decision) {
    LOG.debug("{} {} {} -> {}", ctx.request().method(), ctx.request().path(), request, decision);
    HttpServerResponse response =
        ctx.response()
            .setStatusCode(202)
            .putHeader(OkapiHeaders.TOKEN, decision.token())
            .putHeader(OkapiHeaders.PERMISSIONS, new JsonArray(decision.permissions()).encode())
            .putHeader(
                OkapiHeaders.MODULE_TOKENS,
                new JsonObject(new LinkedHashMap<>(decision.moduleTokens())).encode());
    if (decision.userId() != null) {
      response.putHeader(OkapiHeaders.USER_ID, decision.userId());
    }
    response.end();
  }
}
