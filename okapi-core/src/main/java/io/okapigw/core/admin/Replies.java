package io.okapigw.core.admin;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.function.Function;

/** Reading admin request bodies and writing admin answers, the same way for every resource. */
final class Replies {

  private Replies() {
  }

  /** @return the body as a JSON object; 400 naming the problem if it is empty or not an object */
  static JsonObject jsonObject(RoutingContext ctx) {
    Buffer body = AdminBody.of(ctx);
    if (body == null || body.length() == 0) {
      throw HttpError.badRequest("missing JSON body");
    }
    Object json;
    try {
      json = body.toJsonValue();
    } catch (DecodeException e) {
      throw HttpError.badRequest("malformed JSON: " + firstLine(e.getMessage()));
    }
    if (!(json instanceof JsonObject object)) {
      throw HttpError.badRequest("expected a JSON object");
    }
    return object;
  }

  /** Answers 201 with a Location header and the created resource. */
  static void created(RoutingContext ctx, Future<JsonObject> result, Function<JsonObject, String> location) {
    result.onSuccess(json -> ctx.response().setStatusCode(201)
            .putHeader("Location", location.apply(json))
            .putHeader("Content-Type", "application/json")
            .end(json.encodePrettily()))
        .onFailure(ctx::fail);
  }

  static void ok(RoutingContext ctx, Future<JsonObject> result) {
    result.onSuccess(json -> ctx.response().putHeader("Content-Type", "application/json")
            .end(json.encodePrettily()))
        .onFailure(ctx::fail);
  }

  static void okList(RoutingContext ctx, Future<List<JsonObject>> result) {
    result.onSuccess(list -> ctx.response().putHeader("Content-Type", "application/json")
            .end(new JsonArray(List.copyOf(list)).encodePrettily()))
        .onFailure(ctx::fail);
  }

  static void noContent(RoutingContext ctx, Future<Void> result) {
    result.onSuccess(v -> ctx.response().setStatusCode(204).end()).onFailure(ctx::fail);
  }

  /** Runs {@code handler}, turning a synchronous throw (bad input) into a routed failure. */
  static io.vertx.core.Handler<RoutingContext> guarded(io.vertx.core.Handler<RoutingContext> handler) {
    return ctx -> {
      try {
        handler.handle(ctx);
      } catch (RuntimeException e) {
        ctx.fail(e);
      }
    };
  }

  private static String firstLine(String s) {
    int nl = s == null ? -1 : s.indexOf('\n');
    return s == null ? "" : nl < 0 ? s : s.substring(0, nl);
  }
}
