package io.okapigw.folio.module;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A simulated module as a verticle: an HTTP server on 127.0.0.1 (port 0 = any free one) serving
 * exactly the handlers of its descriptor, each by an {@link Endpoint}, counting what it serves and
 * what it calls, and obeying the {@link Faults} it is given. Requests without {@code
 * X-Okapi-Tenant} get 400, unknown paths 404.
 */
public final class ModuleServer extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(ModuleServer.class);
  private static final int MAX_BODY = 1024 * 1024;
  private static final int POOL_SIZE = 64;

  private record Bound(HandlerSpec spec, Endpoint endpoint) {}

  private record Match(Bound bound, Map<String, String> params) {}

  private final String id;
  private final JsonObject descriptor;
  private final List<Bound> handlers;
  private final String host;
  private final int port;
  private final long callTimeoutMillis;
  private final CallCounts served = new CallCounts();
  private final CallCounts calls = new CallCounts();
  private final Faults faults = new Faults();
  private HttpServer server;
  private HttpClientAgent client;

  /**
   * @param descriptor the module descriptor; its handlers and {@code routes} must correspond
   * @param routes one endpoint per handler and method
   * @param port port to listen on, 0 for any free one
   * @param callTimeout how long a call to another module may wait for an answer
   * @throws IllegalArgumentException naming any handler without endpoint or endpoint without
   *     handler
   */
  public ModuleServer(JsonObject descriptor, Routes routes, int port, Duration callTimeout) {
    this(descriptor, routes, "127.0.0.1", port, callTimeout);
  }

  /**
   * As {@link #ModuleServer(JsonObject, Routes, int, Duration)}, listening on {@code host} (e.g.
   * {@code 0.0.0.0} in a container) instead of 127.0.0.1.
   */
  public ModuleServer(
      JsonObject descriptor, Routes routes, String host, int port, Duration callTimeout) {
    this.id = descriptor.getString("id");
    this.descriptor = descriptor.copy();
    this.handlers = bind(id, HandlerSpec.of(descriptor), routes.endpoints());
    this.host = host;
    this.port = port;
    this.callTimeoutMillis = callTimeout.toMillis();
  }

  @Override
  public Future<?> start() {
    client =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(POOL_SIZE));
    return vertx
        .createHttpServer()
        .requestHandler(this::handle)
        .listen(port, host)
        .onSuccess(s -> server = s)
        .onSuccess(s -> log.info("{} listening on {}", id, url()));
  }

  @Override
  public Future<?> stop() {
    return client == null ? Future.succeededFuture() : client.close();
  }

  /**
   * @return the module id
   */
  public String id() {
    return id;
  }

  /**
   * @return a copy of the descriptor
   */
  public JsonObject descriptor() {
    return descriptor.copy();
  }

  /**
   * @return {@code http://127.0.0.1:<port>} once started
   */
  public String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /**
   * @return counts of the requests served, by handler key
   */
  public CallCounts served() {
    return served;
  }

  /**
   * @return counts of the calls made to other modules, by the called handler's key
   */
  public CallCounts calls() {
    return calls;
  }

  /**
   * @return the failures this module simulates
   */
  public Faults faults() {
    return faults;
  }

  private void handle(HttpServerRequest request) {
    Optional<Match> match = match(request);
    if (match.isEmpty()) {
      respond(
          request,
          ModuleError.notFound(id + ": no handler for " + request.method() + " " + request.path()));
      return;
    }
    String key = match.get().bound().spec().key();
    String requestId = request.getHeader(OkapiHeaders.REQUEST_ID);
    served.record(key, requestId != null && requestId.contains(";"));
    Optional<Faults.Fault> fault = faults.find(key);
    if (fault.isPresent() && fault.get().holds()) {
      hold(request, match.get(), fault.get().release());
    } else if (fault.isEmpty() && !faults.latency().isZero()) {
      hold(request, match.get(), vertx.timer(faults.latency().toMillis()));
    } else if (fault.isPresent()) {
      simulate(request, fault.get());
    } else {
      serve(request, match.get());
    }
  }

  /** Serves the request as usual once {@code release} completes, on this module's event loop. */
  private void hold(HttpServerRequest request, Match match, Future<?> release) {
    request.pause();
    Context context = Vertx.currentContext();
    release.onComplete(
        done ->
            context.runOnContext(
                v -> {
                  serve(request, match);
                  request.resume();
                }));
  }

  private void serve(HttpServerRequest request, Match match) {
    if (request.getHeader(OkapiHeaders.TENANT) == null) {
      respond(request, ModuleError.badRequest("missing " + OkapiHeaders.TENANT + " header"));
    } else {
      dispatch(request, match);
    }
  }

  private void dispatch(HttpServerRequest request, Match match) {
    if (tooLarge(request.getHeader("Content-Length"))) {
      respond(request, ModuleError.of(413, "body larger than " + MAX_BODY + " bytes"));
      return;
    }
    request
        .body()
        .map(body -> new ModuleRequest(request, body, match.params(), this::client))
        .compose(match.bound().endpoint()::handle)
        .onSuccess(reply -> respond(request, reply))
        .onFailure(e -> respond(request, e));
  }

  private static boolean tooLarge(String contentLength) {
    try {
      return contentLength != null && Long.parseLong(contentLength.trim()) > MAX_BODY;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private OkapiClient client(OkapiHeaders headers) {
    return new OkapiClient(client, headers, callTimeoutMillis, calls);
  }

  private void simulate(HttpServerRequest request, Faults.Fault fault) {
    if (!fault.hangs()) {
      respond(
          request,
          ModuleError.of(
              fault.status(),
              id
                  + ": simulated failure "
                  + fault.status()
                  + " of "
                  + request.method()
                  + " "
                  + request.path()));
    }
  }

  private Optional<Match> match(HttpServerRequest request) {
    String method = request.method().name();
    for (Bound bound : handlers) {
      Optional<Map<String, String>> params = bound.spec().match(method, request.path());
      if (params.isPresent()) {
        return Optional.of(new Match(bound, params.get()));
      }
    }
    return Optional.empty();
  }

  private static void respond(HttpServerRequest request, Reply reply) {
    HttpServerResponse response = request.response().setStatusCode(reply.status());
    response.headers().addAll(reply.headers());
    if (reply.location() != null) {
      response.putHeader("Location", reply.location());
    }
    if (reply.body() == null) {
      response.end();
    } else {
      response.putHeader("Content-Type", "application/json").end(reply.body().toBuffer());
    }
  }

  private void respond(HttpServerRequest request, Throwable e) {
    ModuleError error =
        e instanceof ModuleError m ? m : ModuleError.of(500, id + ": internal error: " + e);
    if (!(e instanceof ModuleError)) {
      log.error("{} {} {} failed", id, request.method(), request.uri(), e);
    } else if (error.status() >= 500) {
      log.warn("{} {} {}: {}", id, request.method(), request.uri(), error.getMessage());
    }
    respond(request, new Reply(error.status(), error.toJson()));
  }

  private static List<Bound> bind(
      String id, List<HandlerSpec> specs, Map<String, Endpoint> endpoints) {
    List<Bound> bound = new ArrayList<>();
    Set<String> used = new HashSet<>();
    for (HandlerSpec spec : specs) {
      Endpoint endpoint = endpoints.get(spec.key());
      if (endpoint == null) {
        throw new IllegalArgumentException(
            id + ": descriptor handler " + spec.key() + " has no endpoint");
      }
      bound.add(new Bound(spec, endpoint));
      used.add(spec.key());
    }
    Set<String> extra = new HashSet<>(endpoints.keySet());
    extra.removeAll(used);
    if (!extra.isEmpty()) {
      throw new IllegalArgumentException(id + ": endpoints not in the descriptor: " + extra);
    }
    return List.copyOf(bound);
  }
}
