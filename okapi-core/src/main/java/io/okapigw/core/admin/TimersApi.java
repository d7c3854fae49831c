package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.timer.TimerService;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;

/**
 * Okapi's timer API, {@code /_/proxy/tenants/{tenant}/timers[/{id}]}: GET lists or shows timers,
 * PATCH changes one ({@code {id, routingEntry}} on the list, a routing entry on the timer) and
 * answers 204.
 */
final class TimersApi implements AdminRoutes {

  private static final String TIMERS = "/_/proxy/tenants/:tid/timers";
  private static final Set<String> DESCRIPTOR_FIELDS = Set.of("id", "routingEntry", "modified");

  private final TimerService timers;

  TimersApi(TimerService timers) {
    this.timers = timers;
  }

  @Override
  public void mount(Router router) {
    router.get(TIMERS).handler(ctx -> Replies.okList(ctx, timers.list(ctx.pathParam("tid"))));
    router.patch(TIMERS).handler(guarded(this::patchFromList));
    router
        .get(TIMERS + "/:id")
        .handler(ctx -> Replies.ok(ctx, timers.get(ctx.pathParam("tid"), ctx.pathParam("id"))));
    router
        .patch(TIMERS + "/:id")
        .handler(
            guarded(
                ctx ->
                    Replies.noContent(
                        ctx,
                        timers.patch(
                            ctx.pathParam("tid"), ctx.pathParam("id"), Replies.jsonObject(ctx)))));
  }

  /** The body is a TimerDescriptor, as Okapi takes it: {@code {id, routingEntry}}. */
  private void patchFromList(RoutingContext ctx) {
    JsonObject body = Replies.jsonObject(ctx);
    for (String field : body.fieldNames()) {
      if (!DESCRIPTOR_FIELDS.contains(field)) {
        throw HttpError.badRequest("timer: unknown field " + field + " (id, routingEntry)");
      }
    }
    if (!(body.getValue("id") instanceof String id)) {
      throw HttpError.badRequest("timer: missing id (e.g. mod-circulation_0)");
    }
    if (!(body.getValue("routingEntry") instanceof JsonObject entry)) {
      throw HttpError.badRequest("timer " + id + ": missing routingEntry object");
    }
    Replies.noContent(ctx, timers.patch(ctx.pathParam("tid"), id, entry));
  }
}
