package io.okapigw.perf.hop;

import io.okapigw.config.Settings;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A floor for the comparison, not a gateway: the least a Vert.x reverse proxy does (server request
 * piped into a pooled client request, the response piped back; headers copied as they are, but
 * {@code Host} and the hop-by-hop ones), so that our gateway's cost can be split into what Vert.x's
 * HTTP server and client cost and what our pipeline adds. One verticle per event loop, each with
 * its own client.
 *
 * <p>{@code java -cp perf-fat.jar io.okapigw.perf.hop.VertxRelay --port P --module-port M}
 */
public final class VertxRelay extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(VertxRelay.class);

  private final int port;
  private final int modulePort;
  private HttpClientAgent client;

  private VertxRelay(int port, int modulePort) {
    this.port = port;
    this.modulePort = modulePort;
  }

  public static void main(String[] args) {
    Settings settings = ProcessArgs.read(args);
    int port = settings.get(ProcessArgs.PORT);
    int modulePort = settings.get(ProcessArgs.MODULE_PORT);
    int instances = settings.get(ProcessArgs.INSTANCES);
    Vertx vertx = Vertx.vertx();
    vertx
        .deployVerticle(
            () -> new VertxRelay(port, modulePort), new DeploymentOptions().setInstances(instances))
        .onFailure(
            e -> {
              log.error("vertx relay failed: {}", e.getMessage());
              System.exit(1);
            });
  }

  @Override
  public Future<?> start() {
    client =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true),
            new PoolOptions().setHttp1MaxSize(64));
    return vertx
        .createHttpServer(new HttpServerOptions().setTcpNoDelay(true))
        .requestHandler(this::relay)
        .listen(port, "127.0.0.1");
  }

  private void relay(HttpServerRequest in) {
    in.pause();
    client
        .request(
            new RequestOptions()
                .setMethod(in.method())
                .setHost("127.0.0.1")
                .setPort(modulePort)
                .setURI(in.uri()))
        .compose(
            out -> {
              out.headers()
                  .addAll(in.headers())
                  .remove(HttpHeaders.HOST)
                  .remove(HttpHeaders.CONNECTION);
              return out.send(in);
            })
        .onSuccess(answer -> back(in, answer))
        .onFailure(e -> in.response().setStatusCode(502).end());
  }

  private static void back(HttpServerRequest in, HttpClientResponse answer) {
    in.response().setStatusCode(answer.statusCode()).headers().addAll(answer.headers());
    answer.pipeTo(in.response());
  }
}
