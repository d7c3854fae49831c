package io.okapigw.it.eureka;

import io.okapigw.testsupport.Descriptors;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Two FOLIO-like modules for the side-by-side tests: {@code mod-things} answers {@code /things} and
 * records each request's headers; {@code mod-caller} calls mod-things back through its {@code
 * X-Okapi-Url} (its sidecar, or our gateway) with the headers a FOLIO module passes on: {@code GET
 * /call} one {@code POST /things}, {@code GET /checkout?n=N} N calls in a row as a check-out does
 * (N-1 {@code GET /things/{i}}, then one {@code POST /things}), answering the statuses it got.
 */
final class FanOutModules implements AutoCloseable {

  static final String THINGS = "mod-things-1.0.0";
  static final String CALLER = "mod-caller-1.0.0";

  static final JsonObject THINGS_DESCRIPTOR =
      Descriptors.module(
          THINGS,
          "things",
          Descriptors.handler("GET", "/things", "things.collection.get"),
          Descriptors.handler("POST", "/things", "things.item.post"),
          Descriptors.handler("GET", "/things/{id}", "things.item.get"),
          Descriptors.handler("DELETE", "/things/{id}", "things.item.delete"));
  static final JsonObject CALLER_DESCRIPTOR =
      Descriptors.module(
          CALLER,
          "caller",
          Descriptors.handler("GET", "/call", "caller.get"),
          Descriptors.handler("GET", "/checkout", "caller.checkout"));

  /** The headers of each request mod-things got, in order. */
  final BlockingQueue<MultiMap> thingsGot = new LinkedBlockingQueue<>();

  private final HttpServer things;
  private final HttpServer caller;
  private final HttpClientAgent client;

  private FanOutModules(Vertx vertx, boolean recordHeaders) {
    client = vertx.createHttpClient(new PoolOptions().setHttp1MaxSize(64));
    things =
        vertx
            .createHttpServer()
            .requestHandler(
                req -> {
                  if (recordHeaders) {
                    thingsGot.add(MultiMap.caseInsensitiveMultiMap().addAll(req.headers()));
                  }
                  req.body()
                      .onComplete(
                          b ->
                              req.response()
                                  .setStatusCode(req.method() == HttpMethod.POST ? 201 : 200)
                                  .end("things"));
                })
            .listen(0, "127.0.0.1")
            .await();
    caller = vertx.createHttpServer().requestHandler(this::call).listen(0, "127.0.0.1").await();
  }

  /**
   * @param recordHeaders whether mod-things keeps every request's headers (not under load)
   */
  static FanOutModules start(Vertx vertx, boolean recordHeaders) {
    return new FanOutModules(vertx, recordHeaders);
  }

  String thingsUrl() {
    return "http://127.0.0.1:" + things.actualPort();
  }

  String callerUrl() {
    return "http://127.0.0.1:" + caller.actualPort();
  }

  private void call(HttpServerRequest req) {
    int n = "/checkout".equals(req.path()) ? Integer.parseInt(req.getParam("n", "5")) : 1;
    List<Integer> statuses = new ArrayList<>();
    Future<Void> chain = Future.succeededFuture();
    for (int i = 1; i <= n; i++) {
      boolean last = i == n;
      String path = last ? "/things" : "/things/" + i;
      HttpMethod method = last ? HttpMethod.POST : HttpMethod.GET;
      chain = chain.compose(v -> callThings(req, method, path).map(statuses::add).mapEmpty());
    }
    chain.onComplete(
        done -> {
          if (done.succeeded()) {
            boolean ok = statuses.stream().allMatch(s -> s / 100 == 2);
            req.response()
                .setStatusCode(ok ? 200 : 502)
                .end(String.join(",", statuses.stream().map(String::valueOf).toList()));
          } else {
            req.response().setStatusCode(502).end("failed: " + done.cause());
          }
        });
  }

  private Future<Integer> callThings(HttpServerRequest req, HttpMethod method, String path) {
    RequestOptions options =
        new RequestOptions()
            .setMethod(method)
            .setAbsoluteURI(req.getHeader("X-Okapi-Url") + path)
            .putHeader("Content-Type", "application/json");
    for (String h : List.of("X-Okapi-Tenant", "X-Okapi-Token", "X-Okapi-Request-Id")) {
      if (req.getHeader(h) != null) {
        options.putHeader(h, req.getHeader(h));
      }
    }
    return client
        .request(options)
        .compose(r -> method == HttpMethod.POST ? r.send("{}") : r.send())
        .compose(answer -> answer.body().map(b -> answer.statusCode()));
  }

  @Override
  public void close() {
    things.close().await();
    caller.close().await();
    client.close().await();
  }
}
