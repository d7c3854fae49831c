package io.okapigw.core;

import io.okapigw.core.admin.AdminApi;
import io.okapigw.core.auth.AuthFilterClient;
import io.okapigw.core.auth.CachingAuthStage;
import io.okapigw.core.http.Failures;
import io.okapigw.core.proxy.CorsPolicy;
import io.okapigw.core.proxy.InvokePath;
import io.okapigw.core.proxy.ProxyHandler;
import io.okapigw.core.upstream.UpstreamClient;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

/**
 * One event loop's HTTP server: the admin API under {@code /_/}, {@code /_/invoke/tenant/...}
 * and the proxy for the rest; CORS (as Okapi answers it) for requests with an {@code Origin}.
 */
final class HttpVerticle extends VerticleBase {

  private final GatewayNode.Shared shared;
  private UpstreamClient upstream;

  HttpVerticle(GatewayNode.Shared shared) {
    this.shared = shared;
  }

  @Override
  public Future<?> start() {
    upstream = new UpstreamClient(vertx, shared.options().upstream());
    ProxyHandler proxy = new ProxyHandler(shared.tables(), upstream,
        new CachingAuthStage(shared.cache(), new AuthFilterClient(upstream), shared.metrics()),
        shared.okapiUrl(), shared.metrics(), shared.options().authParallel());
    Router admin = Router.router(vertx);
    CorsPolicy cors = new CorsPolicy(shared.tables());
    admin.route().handler(cors::handle);
    InvokePath.mount(admin, proxy);
    new AdminApi(shared.registry(), shared.version(), shared.cache(), shared.invalidator(),
        shared.metrics(), shared.bus()).mount(admin);
    admin.route().failureHandler(Failures::handle);
    Router proxyWithCors = Router.router(vertx);
    proxyWithCors.route().handler(cors::handle).handler(ctx -> proxy.handle(ctx.request()));
    HttpServerOptions serverOptions = new HttpServerOptions()
        .setMaxHeaderSize(shared.options().maxHeaderSize())
        .setHandle100ContinueAutomatically(true)
        .setMaxChunkSize(UpstreamClient.BODY_CHUNK_SIZE)
        .setTcpNoDelay(true);
    return vertx.createHttpServer(serverOptions)
        // only /_/ and browser requests go through vertx-web's router; the rest skip its matching
        .requestHandler(req -> {
          if (req.path().startsWith("/_/")) {
            admin.handle(req);
          } else if (req.headers().contains(CorsPolicy.ORIGIN)) {
            proxyWithCors.handle(req);
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
