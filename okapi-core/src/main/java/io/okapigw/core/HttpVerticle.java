package io.okapigw.core;

import io.okapigw.core.admin.AdminApi;
import io.okapigw.core.auth.AuthFilterClient;
import io.okapigw.core.auth.CachingAuthStage;
import io.okapigw.core.http.Failures;
import io.okapigw.core.proxy.ProxyHandler;
import io.okapigw.core.upstream.UpstreamClient;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

/** One event loop's HTTP server: the admin API under {@code /_/}, the proxy for the rest. */
final class HttpVerticle extends VerticleBase {

  private final GatewayNode.Shared shared;
  private UpstreamClient upstream;

  HttpVerticle(GatewayNode.Shared shared) {
    this.shared = shared;
  }

  @Override
  public Future<?> start() {
    upstream = new UpstreamClient(vertx, shared.options().upstream());
    Router admin = Router.router(vertx);
    new AdminApi(shared.registry(), shared.version(), shared.cache(), shared.invalidator(),
        shared.metrics(), shared.bus()).mount(admin);
    admin.route().failureHandler(Failures::handle);
    ProxyHandler proxy = new ProxyHandler(shared.tables(), upstream,
        new CachingAuthStage(shared.cache(), new AuthFilterClient(upstream), shared.metrics()),
        shared.okapiUrl(), shared.metrics(), shared.options().authParallel());
    HttpServerOptions serverOptions = new HttpServerOptions()
        .setMaxHeaderSize(shared.options().maxHeaderSize())
        .setHandle100ContinueAutomatically(true)
        .setMaxChunkSize(UpstreamClient.BODY_CHUNK_SIZE)
        .setTcpNoDelay(true);
    return vertx.createHttpServer(serverOptions)
        // only /_/ goes through vertx-web's router; proxied requests skip its route matching
        .requestHandler(req -> {
          if (req.path().startsWith("/_/")) {
            admin.handle(req);
          } else {
            proxy.handle(req);
          }
        })
        .listen(shared.options().port(), shared.options().host());
  }

  @Override
  public Future<?> stop() {
    return upstream == null ? Future.succeededFuture() : upstream.close();
  }
}
