package io.okapigw.folio;

import io.okapigw.folio.blocks.PatronBlocksModule;
import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.data.Librarian;
import io.okapigw.folio.desk.CirculationModule;
import io.okapigw.folio.feesfines.FeesFinesModule;
import io.okapigw.folio.inventory.InventoryStorageModule;
import io.okapigw.folio.module.ModuleServer;
import io.okapigw.folio.module.ModuleSpec;
import io.okapigw.folio.notices.NotifyModule;
import io.okapigw.folio.notices.PubSubModule;
import io.okapigw.folio.permissions.PermissionsModule;
import io.okapigw.folio.register.GatewayRegistration;
import io.okapigw.folio.storage.CirculationStorageModule;
import io.okapigw.folio.users.UsersModule;
import io.okapigw.folio.usersbl.UsersBlModule;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * The simulated FOLIO modules behind the check-out/check-in workload, each a verticle on its own
 * ephemeral 127.0.0.1 port, serving one generated library ({@link CirculationData}).
 *
 * <pre>{@code
 * CirculationModules.start(vertx, CirculationData.Options.defaults())
 *     .compose(modules -> modules.registerOn("http://localhost:9130", "diku").map(modules))
 *     .onSuccess(modules -> ... POST /circulation/check-out-by-barcode through the gateway ...);
 * }</pre>
 *
 * A successful check-out makes {@value CirculationModule#CHECK_OUT_CALLS} module-to-module calls
 * through the gateway, a check-in {@value CirculationModule#CHECK_IN_CALLS}.
 */
public final class CirculationModules {

  /** Default time a module waits for another module's answer before answering 504. */
  public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(10);

  private final Vertx vertx;
  private final CirculationData data;
  private final List<ModuleDeployment> deployments;

  private CirculationModules(
      Vertx vertx, CirculationData data, List<ModuleDeployment> deployments) {
    this.vertx = vertx;
    this.data = data;
    this.deployments = List.copyOf(deployments);
  }

  /**
   * Generates the library and deploys every module, with the default call timeout.
   *
   * @return the running modules; fails if a port cannot be bound
   */
  public static Future<CirculationModules> start(Vertx vertx, CirculationData.Options options) {
    return start(vertx, options, DEFAULT_CALL_TIMEOUT);
  }

  /**
   * @param callTimeout how long a module waits for another module's answer (then 504)
   * @return the running modules; fails if a port cannot be bound
   */
  public static Future<CirculationModules> start(
      Vertx vertx, CirculationData.Options options, Duration callTimeout) {
    return start(vertx, options, callTimeout, "127.0.0.1", 0);
  }

  /**
   * @param callTimeout how long a module waits for another module's answer (then 504)
   * @param host the address every module listens on (the other overloads: 127.0.0.1)
   * @param basePort 0: any free ports; else the first module of {@link #deployments()} listens on
   *     {@code basePort}, the next on {@code basePort + 1}, ...
   * @return the running modules; fails if a port cannot be bound
   */
  public static Future<CirculationModules> start(
      Vertx vertx,
      CirculationData.Options options,
      Duration callTimeout,
      String host,
      int basePort) {
    return start(vertx, () -> prepare(options), callTimeout, host, basePort);
  }

  /**
   * The generated library and its modules' specs (each descriptor read from the class path).
   *
   * @param data the library
   * @param specs the modules, providers first
   */
  record Prepared(CirculationData data, List<ModuleSpec> specs) {}

  /**
   * Generates the library and reads the descriptors: seconds of CPU on a loaded machine (4.6 s of a
   * demo's start at load 18, all on the event loop before), so never on an event loop.
   */
  static Prepared prepare(CirculationData.Options options) {
    CirculationData data = CirculationData.generate(options);
    return new Prepared(data, specs(data));
  }

  /**
   * As {@link #start(Vertx, CirculationData.Options, Duration, String, int)}, with the library
   * prepared by {@code prepare} on a worker thread, then the modules deployed.
   */
  static Future<CirculationModules> start(
      Vertx vertx, Callable<Prepared> prepare, Duration callTimeout, String host, int basePort) {
    return vertx
        .executeBlocking(prepare)
        .compose(prepared -> deploy(vertx, prepared, callTimeout, host, basePort));
  }

  private static Future<CirculationModules> deploy(
      Vertx vertx, Prepared prepared, Duration callTimeout, String host, int basePort) {
    List<Future<ModuleDeployment>> started = new ArrayList<>();
    List<ModuleSpec> specs = prepared.specs();
    for (int i = 0; i < specs.size(); i++) {
      ModuleSpec spec = specs.get(i);
      int port = basePort == 0 ? 0 : basePort + i;
      ModuleServer server =
          new ModuleServer(spec.descriptor(), spec.routes(), host, port, callTimeout);
      started.add(vertx.deployVerticle(server).map(id -> new ModuleDeployment(server, id)));
    }
    return Future.join(started)
        .recover(e -> undeploy(vertx, started).transform(v -> Future.failedFuture(e)))
        .map(
            all ->
                new CirculationModules(
                    vertx, prepared.data(), started.stream().map(Future::result).toList()));
  }

  /**
   * Runs one module alone (a deployment of a module by a gateway: {@code java -jar
   * folio-modules-fat.jar module --name mod-users --port P}), on its own generated library, the
   * same as every other module's for the same options.
   *
   * @param name the module name without version, e.g. {@code mod-users}
   * @return the running module; fails if there is no such module or its port cannot be bound
   */
  public static Future<ModuleDeployment> startOne(
      Vertx vertx,
      CirculationData.Options options,
      Duration callTimeout,
      String host,
      int port,
      String name) {
    return vertx
        .executeBlocking(() -> spec(prepare(options).specs(), name))
        .compose(
            spec -> {
              ModuleServer server =
                  new ModuleServer(spec.descriptor(), spec.routes(), host, port, callTimeout);
              return vertx.deployVerticle(server).map(id -> new ModuleDeployment(server, id));
            });
  }

  /**
   * @return every module's descriptor, providers first (what {@code register} registers)
   */
  public static List<JsonObject> descriptors(CirculationData.Options options) {
    return specs(CirculationData.generate(options)).stream()
        .map(s -> s.descriptor().copy())
        .toList();
  }

  private static ModuleSpec spec(List<ModuleSpec> specs, String name) {
    return specs.stream()
        .filter(s -> s.descriptor().getString("id").matches(Pattern.quote(name) + "-\\d.*"))
        .findFirst()
        .orElseThrow(() -> new NoSuchElementException("no simulated module " + name));
  }

  /**
   * The permissions a librarian needs to check items out and in through the gateway: the
   * permissions required by the two handlers a client calls directly. Everything circulation does
   * downstream runs on its module permissions.
   */
  public static List<String> librarianPermissions() {
    return Librarian.PERMISSIONS;
  }

  /**
   * @return the modules in an order that can be enabled one by one (providers first)
   */
  public List<ModuleDeployment> deployments() {
    return deployments;
  }

  /**
   * @param name the module name without version, e.g. {@code mod-circulation}
   * @throws NoSuchElementException if there is no such module
   */
  public ModuleDeployment deployment(String name) {
    return deployments.stream()
        .filter(d -> d.id().matches(Pattern.quote(name) + "-\\d.*"))
        .findFirst()
        .orElseThrow(() -> new NoSuchElementException("no simulated module " + name));
  }

  /**
   * @return the generated library: patron and item barcodes, the service point id, ...
   */
  public CirculationData data() {
    return data;
  }

  /**
   * Registers every module on a gateway and enables it for the tenant (see {@link
   * GatewayRegistration}); safe to repeat.
   *
   * @param adminUrl the gateway's URL, e.g. {@code http://localhost:9130}
   * @param tenant tenant id, created if missing
   */
  public Future<Void> registerOn(String adminUrl, String tenant) {
    return GatewayRegistration.register(
        vertx, adminUrl, tenant, deployments.stream().map(ModuleDeployment::module).toList());
  }

  /** Undeploys every module. */
  public Future<Void> close() {
    return undeploy(vertx, deployments.stream().map(Future::succeededFuture).toList());
  }

  private static List<ModuleSpec> specs(CirculationData data) {
    return List.of(
        UsersModule.spec(data),
        PermissionsModule.spec(Librarian.DEMO),
        InventoryStorageModule.spec(data),
        CirculationStorageModule.spec(data),
        FeesFinesModule.spec(data),
        PatronBlocksModule.spec(data),
        NotifyModule.spec(),
        PubSubModule.spec(),
        CirculationModule.spec(data, Clock.systemUTC()),
        UsersBlModule.spec());
  }

  private static Future<Void> undeploy(Vertx vertx, List<Future<ModuleDeployment>> started) {
    List<Future<Void>> stopped =
        started.stream()
            .filter(Future::succeeded)
            .map(f -> vertx.undeploy(f.result().deploymentId()))
            .toList();
    return Future.join(stopped).mapEmpty();
  }
}
