package io.okapigw.perf.kit.launch;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.AuthtokenVerticle;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.token.TokenOptions;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.config.Settings;
import io.okapigw.core.Gateway;
import io.okapigw.core.config.AuthParallel;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.perf.kit.modules.FakeBodyModule;
import io.okapigw.perf.kit.modules.FixedModule;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/** {@link Launcher#inProcess}: everything on this JVM's Vert.x, one event loop per part. */
final class InProcessLauncher implements Launcher {

  private final Vertx vertx;
  private final Path workDir;
  private final List<Supplier<Future<?>>> stops = new CopyOnWriteArrayList<>();

  InProcessLauncher(Vertx vertx, Path workDir) {
    this.vertx = vertx;
    this.workDir = workDir;
  }

  @Override
  public Future<String> gateway(AuthParallel mode, Map<String, String> settings) {
    GatewayOptions d = GatewayOptions.from(Settings.of(settings));
    GatewayOptions options =
        new GatewayOptions(
            0,
            "127.0.0.1",
            null,
            1,
            d.maxHeaderSize(),
            d.upstream(),
            d.authCache(),
            d.storage(),
            d.clusterAckTimeout(),
            mode,
            d.admin(),
            d.server(),
            d.tenantInit(),
            d.node(),
            d.drain(),
            d.bulkhead(),
            d.tracing(),
            d.eureka(),
            d.auth(),
            d.deployment(),
            d.buffers());
    return Gateway.start(vertx, options)
        .onSuccess(gateway -> stops.add(gateway::stop))
        .map(gateway -> url(gateway.port()));
  }

  @Override
  public Future<String> authtoken(BenchUser user) {
    Path dir = workDir.resolve("authtoken-" + stops.size());
    AuthtokenVerticle verticle =
        new AuthtokenVerticle(
            AuthtokenOptions.onLoopback(dir)
                .withPasswords(PasswordOptions.cheapest())
                .withTokens(TokenOptions.defaults().withTtl(Duration.ofHours(1)))
                .withBootstrap(
                    List.of(
                        new BootstrapUser(
                            user.tenant(), user.username(), user.password(), user.permissions()))));
    return vertx
        .deployVerticle(verticle)
        .onSuccess(id -> stops.add(() -> vertx.undeploy(id)))
        .map(id -> url(verticle.actualPort()));
  }

  @Override
  public Future<String> fakeModule() {
    return server(FakeBodyModule.start(vertx, 0));
  }

  @Override
  public Future<String> fixedModule(int size, Duration delay) {
    return server(FixedModule.start(vertx, 0, size, delay));
  }

  @Override
  public Future<Void> close() {
    return Future.join(stops.stream().<Future<?>>map(Supplier::get).toList())
        .<Void>mapEmpty()
        .otherwiseEmpty()
        .onComplete(v -> stops.clear());
  }

  private Future<String> server(Future<HttpServer> started) {
    return started
        .onSuccess(server -> stops.add(server::close))
        .map(server -> url(server.actualPort()));
  }

  private static String url(int port) {
    return "http://127.0.0.1:" + port;
  }
}
