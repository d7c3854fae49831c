package io.okapigw.core;

import io.okapigw.core.admin.AdminApi;
import io.okapigw.core.auth.AuthFilterClient;
import io.okapigw.core.http.Failures;
import io.okapigw.core.proxy.ProxyHandler;
import io.okapigw.core.upstream.UpstreamClient;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

/** One event loop's HTTP server: admin routes first, then the proxy for everything else. */
final class HttpVerticle extends VerticleBase {

  private final GatewayNode.Shared shared;
  private UpstreamClient upstream;

  HttpVerticle(GatewayNode.Shared shared) {
    this.shared = shared;
  }

  @Override
  public Future<?> start() {
    upstream = new UpstreamClient(vertx, shared.options().upstream());
    Router router = Router.router(vertx);
    new AdminApi(shared.registry(), shared.version()).mount(router);
    router.route().handler(new ProxyHandler(shared.tables(), upstream,
        new AuthFilterClient(upstream), shared.okapiUrl()));
    router.route().failureHandler(Failures::handle);
    HttpServerOptions serverOptions = new HttpServerOptions()
        .setMaxHeaderSize(shared.options().maxHeaderSize())
        .setHandle100ContinueAutomatically(true)
        .setTcpNoDelay(true);
    return vertx.createHttpServer(serverOptions)
        .requestHandler(router)
        .listen(shared.options().port(), shared.options().host());
  }

  @Override
  public Future<?> stop() {
    return upstream == null ? Future.succeededFuture() : upstream.close();
  }
}
