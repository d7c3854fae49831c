package io.okapigw.authtoken.filter;

import io.okapigw.authtoken.OkapiHeaders;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The auth filter endpoint: any request carrying {@code X-Okapi-Filter: auth...} is a filter
 * request, whatever its method and path (the gateway sends the original ones); others go on
 * to the module's own routes. Answers 202 with {@code X-Okapi-Token}, {@code X-Okapi-User-Id},
 * {@code X-Okapi-Permissions} and {@code X-Okapi-Module-Tokens}, or 400/401/403 with a message.
 */
public final class AuthFilterHandler implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(AuthFilterHandler.class);

  private final AuthFilter filter;

  /** @param filter the decision logic */
  public AuthFilterHandler(AuthFilter filter) {
    this.filter = filter;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String phase = ctx.request().getHeader(OkapiHeaders.FILTER);
    if (phase == null || !phase.startsWith("auth")) {
      ctx.next();
      return;
    }
    FilterRequest request = FilterRequest.parse(ctx.request().headers());
    filter.decide(request)
        .onSuccess(decision -> respond(ctx, request, decision))
        .onFailure(ctx::fail);
  }

  private static void respond(RoutingContext ctx, FilterRequest request, FilterDecision decision) {
    LOG.debug("{} {} {} -> {}", ctx.request().method(), ctx.request().path(), request, decision);
    HttpServerResponse response = ctx.response().setStatusCode(202)
        .putHeader(OkapiHeaders.TOKEN, decision.token())
        .putHeader(OkapiHeaders.PERMISSIONS, new JsonArray(decision.permissions()).encode())
        .putHeader(OkapiHeaders.MODULE_TOKENS, new JsonObject(new LinkedHashMap<>(decision.moduleTokens()))
            .encode());
    if (decision.userId() != null) {
      response.putHeader(OkapiHeaders.USER_ID, decision.userId());
    }
    response.end();
  }
}
