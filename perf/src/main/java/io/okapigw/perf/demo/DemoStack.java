package io.okapigw.perf.demo;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.AuthtokenVerticle;
import io.okapigw.authtoken.BootstrapUser;
import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.core.Gateway;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.perf.circulation.CirculationModules;
import io.okapigw.perf.circulation.GatewayRegistration;
import io.okapigw.perf.circulation.GatewayRegistration.Module;
import io.okapigw.perf.circulation.data.CirculationData;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A whole library on one machine: the gateway, the authtoken module (JSON store) and every
 * simulated circulation module, registered and enabled for tenant {@code diku}, with user
 * {@code diku_admin} / {@code admin} allowed to check items out and in.
 */
public final class DemoStack {

  private final Vertx vertx;
  private final DemoOptions options;
  private final Gateway gateway;
  private final CirculationModules modules;
  private final List<String> deployments;

  private DemoStack(Vertx vertx, DemoOptions options, Gateway gateway,
      CirculationModules modules, List<String> deployments) {
    this.vertx = vertx;
    this.options = options;
    this.gateway = gateway;
    this.modules = modules;
    this.deployments = deployments;
  }

  /** Starts everything and registers it; fails with the first problem. */
  public static Future<DemoStack> start(Vertx vertx, DemoOptions options) {
    GatewayOptions gatewayOptions = GatewayOptions.defaults(options.port())
        .withAuthCache(new AuthCacheOptions().setEnabled(options.cache()));
    return Gateway.start(vertx, gatewayOptions)
        .compose(gateway -> CirculationModules.start(vertx, new CirculationData.Options(
                CirculationData.Options.DEFAULT_SEED, options.patrons(), options.items()))
            .map(modules -> new DemoStack(vertx, options, gateway, modules, new ArrayList<>())))
        .compose(stack -> stack.register().map(stack));
  }

  /** Authtoken first: every module enabled after it hands it its permission sets. */
  private Future<Void> register() {
    Future<List<Module>> authtoken = options.auth()
        ? startAuthtoken().map(url -> List.of(new Module(authtokenDescriptor(), url)))
        : Future.succeededFuture(List.of());
    return authtoken
        .map(first -> {
          List<Module> all = new ArrayList<>(first);
          modules.deployments().forEach(d -> all.add(new Module(d.descriptor(), d.url())));
          return all;
        })
        .compose(all -> GatewayRegistration.register(vertx, gateway.okapiUrl(),
            DemoOptions.TENANT, all))
        .compose(v -> BarcodeCsv.write(vertx, options.dataDir().resolve("barcodes.csv"),
            modules.data()));
  }

  private Future<String> startAuthtoken() {
    int port = freePort();
    List<String> perms = new ArrayList<>(CirculationModules.librarianPermissions());
    perms.add("authtoken.all");
    AuthtokenOptions authtoken = new AuthtokenOptions().setPort(port).setHost("127.0.0.1")
        .setStore("json:" + options.dataDir().resolve("authtoken"))
        .setSigningKeyFile(options.dataDir().resolve("authtoken/signing.key").toString())
        .setGatewayUrl(gateway.okapiUrl())
        .addBootstrapUser(new BootstrapUser(DemoOptions.TENANT, DemoOptions.ADMIN,
            DemoOptions.ADMIN_PASSWORD, perms));
    return vertx.deployVerticle(new AuthtokenVerticle(authtoken))
        .map(id -> {
          deployments.add(id);
          return "http://127.0.0.1:" + port;
        });
  }

  /** @return the authtoken module's descriptor, shipped in its jar */
  public static JsonObject authtokenDescriptor() {
    try (InputStream in = DemoStack.class.getResourceAsStream("/descriptors/ModuleDescriptor.json")) {
      if (in == null) {
        throw new IllegalStateException("authtoken descriptor missing from the classpath");
      }
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** @return the gateway's base URL */
  public String gatewayUrl() {
    return gateway.okapiUrl();
  }

  public DemoOptions options() {
    return options;
  }

  /** @return the generated library (barcodes, service point) */
  public CirculationData data() {
    return modules.data();
  }

  /** @return the simulated modules (for call counts) */
  public CirculationModules modules() {
    return modules;
  }

  /** Stops the modules, the auth module and the gateway. */
  public Future<Void> close() {
    return modules.close()
        .compose(v -> Future.all(deployments.stream().map(vertx::undeploy).toList()))
        .compose(v -> gateway.stop());
  }
}
