package io.okapigw.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Ticker;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.timer.Scheduler;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node's start goes on in the continuation of opening its storage, on an event loop; building the
 * node and its handlers there loaded their classes on that loop, which beside two CPU burners held
 * the demo's event loop 1.8-5.9 s (issue 48). Started from an event loop, the node is built on a
 * worker of the caller's context, then serves. Shown by where the work runs, not by how long it
 * takes.
 */
class GatewayNodeStartTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void start_fromAnEventLoop_buildsTheNodeOnAWorkerOfThatContext_thenServes() throws Exception {
    List<Boolean> builtOnEventLoop = new ArrayList<>();
    List<Boolean> builtInCallersContext = new ArrayList<>();
    Promise<GatewayNode> started = Promise.promise();
    Context caller = vertx.getOrCreateContext();
    caller.runOnContext(
        v ->
            GatewayNode.start(
                    vertx,
                    GatewayOptions.defaults(0),
                    (options, storage) -> {
                      builtOnEventLoop.add(Context.isOnEventLoopThread());
                      builtInCallersContext.add(Vertx.currentContext() == caller);
                      return new GatewayNode(
                          vertx, options, Ticker.systemTicker(), Scheduler.system(vertx), storage);
                    })
                .onComplete(started));

    GatewayNode node = started.future().await();

    assertThat(builtOnEventLoop).containsExactly(false);
    assertThat(builtInCallersContext).containsExactly(true);
    HttpResponse<String> health =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + node.options().port() + "/_/proxy/health"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
    node.stop().await();
  }
}
