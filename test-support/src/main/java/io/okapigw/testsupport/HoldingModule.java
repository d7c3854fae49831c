package io.okapigw.testsupport;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A module on 127.0.0.1 that holds every {@code /slow} request until the test answers it, and
 * answers anything else {@code fast} at once: requests in flight for as long as a test needs.
 */
public final class HoldingModule {

  private final HttpServer server;
  private final List<HttpServerRequest> held = new CopyOnWriteArrayList<>();

  private HoldingModule(Vertx vertx) {
    server =
        vertx
            .createHttpServer()
            .requestHandler(
                req -> {
                  if (req.path().equals("/slow")) {
                    held.add(req);
                  } else {
                    req.response().end("fast");
                  }
                })
            .listen(0, "127.0.0.1")
            .await();
  }

  /**
   * @return a module listening on a free port (closed with {@code vertx})
   */
  public static HoldingModule start(Vertx vertx) {
    return new HoldingModule(vertx);
  }

  /**
   * @return its URL, {@code http://127.0.0.1:PORT}
   */
  public String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /**
   * @return how many {@code /slow} requests arrived so far (answered or not)
   */
  public int held() {
    return held.size();
  }

  /**
   * @return a header of the {@code i}th {@code /slow} request that arrived, or null
   */
  public String heldHeader(int i, String name) {
    return held.get(i).getHeader(name);
  }

  /** Waits until {@code n} {@code /slow} requests have arrived (at most 30 s). */
  public void awaitHeld(int n) {
    Await.until(() -> held.size() >= n, n + " requests reached the module");
  }

  /** Answers every {@code /slow} request not answered yet with 200 and {@code body}. */
  public void answerAll(String body) {
    held.stream()
        .filter(req -> !req.response().ended() && !req.response().closed())
        .forEach(req -> req.response().end(body));
  }
}
