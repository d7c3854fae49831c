package io.okapigw.core.testing;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A module implementing Okapi's {@code _tenant} interface (1.x: {@code POST /_/tenant}, {@code POST
 * /_/tenant/disable}, {@code DELETE /_/tenant}; 2.0: {@code POST /_/tenant} answering 201 + {@code
 * Location} with a job, {@code GET} and {@code DELETE /_/tenant/{id}}) whose answers a test
 * chooses, recording every call with its body.
 */
public final class TenantApiModule implements AutoCloseable {

  /** How the module answers {@code POST /_/tenant}. */
  public enum Mode {
    /** 204 at once (1.x, or a 2.0 module with nothing to do). */
    SYNC,
    /** 201 + Location; the job completes at the second poll. */
    JOB,
    /** 201 + Location; the job completes with an error at the first poll. */
    JOB_FAILS,
    /** 201 + Location; the job never completes. */
    JOB_NEVER,
    /** 400 with a message. */
    REFUSE,
    /** holds the answer until {@link #release()} (at once if released before), then 204. */
    HOLD
  }

  /** One call: method, path, JSON body (null if none). */
  public record Call(String method, String path, JsonObject body) {
    @Override
    public String toString() {
      return method + " " + path + (body == null ? "" : " " + body.encode());
    }
  }

  private final HttpServer server;
  private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
  private final AtomicInteger polls = new AtomicInteger();
  private volatile Mode mode = Mode.SYNC;
  private final Promise<Void> held = Promise.promise();
  private final Promise<Void> holding = Promise.promise();
  private volatile Runnable onPoll = () -> {};

  private TenantApiModule(Vertx vertx, String name, Queue<String> log) {
    Router router = Router.router(vertx);
    router
        .route()
        .handler(
            ctx ->
                ctx.request()
                    .body()
                    .onSuccess(
                        body -> {
                          Call call =
                              new Call(
                                  ctx.request().method().name(),
                                  ctx.request().path(),
                                  body.length() == 0 ? null : body.toJsonObject());
                          calls.add(call);
                          if (log != null) {
                            log.add(name + ": " + call);
                          }
                          ctx.next();
                        }));
    router.post("/_/tenant").handler(this::post);
    router.get("/_/tenant/:id").handler(this::poll);
    router.route("/*").handler(ctx -> ctx.response().setStatusCode(204).end());
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
  }

  public static TenantApiModule start(Vertx vertx) {
    return new TenantApiModule(vertx, null, null);
  }

  /** Starts a module that also adds each call, as {@code "name: call"}, to {@code log}. */
  public static TenantApiModule start(Vertx vertx, String name, Queue<String> log) {
    return new TenantApiModule(vertx, name, log);
  }

  public String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /**
   * @return this, answering {@code POST /_/tenant} as {@code newMode} from now on
   */
  public TenantApiModule mode(Mode newMode) {
    this.mode = newMode;
    return this;
  }

  /**
   * @return completes when a {@code POST /_/tenant} is held (mode {@link Mode#HOLD})
   */
  public Future<Void> holding() {
    return holding.future();
  }

  /** Lets a held {@code POST /_/tenant} answer, or the next one answer at once. */
  public void release() {
    held.tryComplete();
  }

  /**
   * @return every call not yet taken, as {@code "METHOD /path {body}"}; then forgets them
   */
  public List<String> take() {
    List<String> all = new ArrayList<>();
    Call c;
    while ((c = calls.poll()) != null) {
      all.add(c.toString());
    }
    return all;
  }

  /**
   * @return this, running {@code action} at each job poll, before it answers (a test moves its fake
   *     clock so)
   */
  public TenantApiModule onPoll(Runnable action) {
    this.onPoll = action;
    return this;
  }

  /**
   * @return how many job polls (GET) the module answered
   */
  public int polls() {
    return polls.get();
  }

  private void post(RoutingContext ctx) {
    switch (mode) {
      case SYNC -> ctx.response().setStatusCode(204).end();
      case REFUSE -> ctx.response().setStatusCode(400).end("no schema for you");
      case HOLD -> {
        holding.tryComplete();
        held.future().onComplete(x -> ctx.response().setStatusCode(204).end());
      }
      default ->
          ctx.response()
              .setStatusCode(201)
              .putHeader("Location", "/_/tenant/job-1")
              .putHeader("Content-Type", "application/json")
              .end(new JsonObject().put("id", "job-1").put("complete", false).encode());
    }
  }

  private void poll(RoutingContext ctx) {
    int n = polls.incrementAndGet();
    onPoll.run();
    JsonObject job = new JsonObject().put("id", ctx.pathParam("id"));
    switch (mode) {
      case JOB -> job.put("complete", n >= 2);
      case JOB_FAILS ->
          job.put("complete", true)
              .put("error", "schema creation failed")
              .put("messages", new JsonArray().add("relation x exists"));
      default -> job.put("complete", false);
    }
    ctx.response().putHeader("Content-Type", "application/json").end(job.encode());
  }

  @Override
  public void close() {
    server.close().await();
  }

  /**
   * A module descriptor providing {@code _tenant} in {@code version} (handlers as FOLIO modules
   * declare them) and, unless null, the interface {@code provides} 1.0; requiring {@code requires}
   * 1.0 unless null.
   */
  public static JsonObject descriptor(String id, String version, String provides, String requires) {
    JsonArray handlers = new JsonArray();
    if (version.startsWith("2.")) {
      handlers
          .add(handler("POST", "/_/tenant"))
          .add(handler("GET", "/_/tenant/{id}"))
          .add(handler("DELETE", "/_/tenant/{id}"));
    } else {
      handlers
          .add(handler("POST", "/_/tenant"))
          .add(handler("POST", "/_/tenant/disable"))
          .add(handler("DELETE", "/_/tenant"));
    }
    JsonArray interfaces =
        new JsonArray()
            .add(
                new JsonObject()
                    .put("id", "_tenant")
                    .put("version", version)
                    .put("interfaceType", "system")
                    .put("handlers", handlers));
    if (provides != null) {
      interfaces.add(
          new JsonObject()
              .put("id", provides)
              .put("version", "1.0")
              .put("handlers", new JsonArray().add(handler("GET", "/" + provides))));
    }
    JsonArray required = new JsonArray();
    if (requires != null) {
      required.add(new JsonObject().put("id", requires).put("version", "1.0"));
    }
    return new JsonObject().put("id", id).put("provides", interfaces).put("requires", required);
  }

  private static JsonObject handler(String method, String path) {
    return new JsonObject()
        .put("methods", new JsonArray().add(method))
        .put("pathPattern", path)
        .put("permissionsRequired", new JsonArray());
  }
}
