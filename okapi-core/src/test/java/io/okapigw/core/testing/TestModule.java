package io.okapigw.core.testing;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** A real HTTP module on an ephemeral port that records the headers of every request it gets. */
public final class TestModule implements AutoCloseable {

  private final HttpServer server;
  private final BlockingQueue<Recorded> requests = new LinkedBlockingQueue<>();

  private TestModule(Vertx vertx, Consumer<Router> routes) {
    Router router = Router.router(vertx);
    router
        .route()
        .handler(
            ctx -> {
              requests.add(
                  new Recorded(
                      ctx.request().method().name(),
                      ctx.request().uri(),
                      MultiMap.caseInsensitiveMultiMap().addAll(ctx.request().headers())));
              ctx.next();
            });
    routes.accept(router);
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
  }

  /** Starts a module whose routes {@code routes} adds. */
  public static TestModule start(Vertx vertx, Consumer<Router> routes) {
    return new TestModule(vertx, routes);
  }

  public String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /**
   * @return the next recorded request; fails the test if none arrives within a minute
   */
  public Recorded take() {
    try {
      Recorded r = requests.poll(1, TimeUnit.MINUTES);
      if (r == null) {
        throw new AssertionError("module got no request within a minute");
      }
      return r;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * @return every recorded request not yet taken, which are then forgotten
   */
  public List<Recorded> drain() {
    List<Recorded> all = new ArrayList<>();
    requests.drainTo(all);
    return all;
  }

  /**
   * @return how many requests are recorded and not yet taken
   */
  public int pending() {
    return requests.size();
  }

  @Override
  public void close() {
    server.close().await();
  }

  /** One request as the module saw it. */
  public record Recorded(String method, String uri, MultiMap headers) {
    public String header(String name) {
      return headers.get(name);
    }
  }
}
