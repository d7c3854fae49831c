package io.okapigw.core.admin;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;

/** Reading admin request bodies and writing admin answers, the same way for every resource. */
final class Replies {

  private Replies() {}

  /**
   * @return the body as a JSON object (parsed by {@link AdminBody}, off the event loop when large);
   *     400 naming the problem if it is empty or not an object
   */
  static JsonObject jsonObject(RoutingContext ctx) {
    Object json;
    try {
      json = AdminBody.json(ctx);
    } catch (DecodeException e) {
      throw HttpError.badRequest("malformed JSON: " + firstLine(e.getMessage()));
    }
    if (json == null) {
      throw HttpError.badRequest("missing JSON body");
    }
    if (!(json instanceof JsonObject object)) {
      throw HttpError.badRequest("expected a JSON object");
    }
    return object;
  }

  /**
   * @param what what the array holds, for the message
   * @return the body as a JSON array; 400 naming the problem if it is empty or not an array
   */
  static JsonArray jsonArray(RoutingContext ctx, String what) {
    Object json;
    try {
      json = AdminBody.json(ctx);
    } catch (DecodeException e) {
      throw HttpError.badRequest("malformed JSON: " + firstLine(e.getMessage()));
    }
    if (!(json instanceof JsonArray array)) {
      throw HttpError.badRequest(json == null ? "missing JSON body" : "expected " + what);
    }
    return array;
  }

  /**
   * Runs {@code work} on a worker thread: what grows with the size of a descriptor (checking one,
   * encoding answers) must not hold the event loop that proxied requests run on.
   */
  static <T> Future<T> offLoop(RoutingContext ctx, Callable<T> work) {
    return ctx.vertx().executeBlocking(work, false);
  }

  /**
   * Okapi's Location of a created resource: {@code base}, then each id URL-encoded as Okapi encodes
   * it ({@link URLEncoder}: {@code +} as {@code %2B}, a space as {@code +}, {@code /} as {@code
   * %2F}), each after a {@code /}.
   */
  static String location(String base, String... ids) {
    StringBuilder location = new StringBuilder(base);
    for (String id : ids) {
      location.append('/').append(URLEncoder.encode(id, StandardCharsets.UTF_8));
    }
    return location.toString();
  }

  /**
   * @return the Location of {@code id} in a tenant's {@code collection} ({@code modules}, {@code
   *     install}), ids encoded as {@link #location} does
   */
  static String tenantLocation(String tenant, String collection, String id) {
    return location(location("/_/proxy/tenants", tenant) + "/" + collection, id);
  }

  /** Answers 201 with a Location header and the created resource. */
  static void created(
      RoutingContext ctx, Future<JsonObject> result, Function<JsonObject, String> location) {
    result
        .compose(
            json ->
                offLoop(ctx, json::encodePrettily)
                    .onSuccess(
                        text ->
                            ctx.response()
                                .setStatusCode(201)
                                .putHeader("Location", location.apply(json))
                                .putHeader("Content-Type", "application/json")
                                .end(text)))
        .onFailure(ctx::fail);
  }

  static void ok(RoutingContext ctx, Future<JsonObject> result) {
    result
        .compose(json -> offLoop(ctx, json::encodePrettily))
        .onSuccess(text -> ctx.response().putHeader("Content-Type", "application/json").end(text))
        .onFailure(ctx::fail);
  }

  static void okList(RoutingContext ctx, Future<List<JsonObject>> result) {
    result
        .compose(list -> offLoop(ctx, () -> new JsonArray(List.copyOf(list)).encodePrettily()))
        .onSuccess(text -> ctx.response().putHeader("Content-Type", "application/json").end(text))
        .onFailure(ctx::fail);
  }

  static void noContent(RoutingContext ctx, Future<Void> result) {
    result.onSuccess(v -> ctx.response().setStatusCode(204).end()).onFailure(ctx::fail);
  }

  /** Runs {@code handler}, turning a synchronous throw (bad input) into a routed failure. */
  static io.vertx.core.Handler<RoutingContext> guarded(
      io.vertx.core.Handler<RoutingContext> handler) {
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
