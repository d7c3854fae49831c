package io.okapigw.core;

import io.okapigw.core.admin.AdminApi;
import io.okapigw.core.admin.InternalAdmin;
import io.okapigw.core.admin.OkapiModule;
import io.okapigw.core.auth.AuthFilterClient;
import io.okapigw.core.auth.CachingAuthStage;
import io.okapigw.core.config.AdminOptions;
import io.okapigw.core.http.Failures;
import io.okapigw.core.proxy.CorsPolicy;
import io.okapigw.core.proxy.ProxyHandler;
import io.okapigw.core.server.ClientConnections;
import io.okapigw.core.upstream.UpstreamClient;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

/**
 * One event loop's HTTP servers: the public listener, and the admin listener when {@code
 * admin.port} is set. Both route every request through the proxy; the admin API is served inside
 * the gateway as the okapi module's handlers.
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
    Router admin = Router.router(vertx);
    new AdminApi(
            shared.registry(),
            shared.version(),
            shared.cache(),
            shared.invalidator(),
            shared.metrics(),
            shared.bus(),
            shared.exposure(),
            shared.timers(),
            shared.installer())
        .mount(admin);
    admin.route().failureHandler(Failures::handle);
    ProxyHandler proxy =
        new ProxyHandler(
            shared.tables(),
            upstream,
            new CachingAuthStage(shared.cache(), new AuthFilterClient(upstream), shared.metrics()),
            shared.okapiUrl(),
            shared.metrics(),
            shared.options().authParallel(),
            new InternalAdmin(OkapiModule.id(shared.version()), admin),
            shared.options().node().logWait());
    CorsPolicy cors = new CorsPolicy(shared.tables(), proxy);
    AdminOptions adminOptions = shared.options().admin();
    Future<?> publicListener =
        listen(
            proxy,
            cors,
            adminOptions.servedOnPublic(),
            shared.options().port(),
            shared.options().host());
    if (!adminOptions.hasListener()) {
      return publicListener;
    }
    return publicListener.compose(
        v -> listen(proxy, cors, true, adminOptions.port(), adminOptions.host()));
  }

  private Future<?> listen(
      ProxyHandler proxy, CorsPolicy cors, boolean servesAdmin, int port, String host) {
    HttpServerOptions serverOptions =
        new HttpServerOptions()
            .setMaxHeaderSize(shared.options().maxHeaderSize())
            .setHandle100ContinueAutomatically(true)
            .setMaxChunkSize(UpstreamClient.BODY_CHUNK_SIZE)
            .setTcpNoDelay(true);
    ClientConnections connections =
        new ClientConnections(vertx, serverOptions, shared.options().server());
    return connections
        .server(new RequestDispatcher(vertx, proxy, cors, servesAdmin, connections))
        .listen(port, host);
  }

  @Override
  public Future<?> stop() {
    return upstream == null ? Future.succeededFuture() : upstream.close();
  }
}
