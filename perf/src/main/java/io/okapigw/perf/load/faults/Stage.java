package io.okapigw.perf.load.faults;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.folio.register.SuperAdmin;
import io.okapigw.perf.kit.launch.BenchUser;
import io.okapigw.perf.kit.launch.Discovery;
import io.okapigw.perf.kit.launch.Logins;
import io.okapigw.perf.kit.launch.ModuleInstance;
import io.okapigw.perf.kit.process.Children;
import io.okapigw.perf.load.BarcodeRow;
import io.okapigw.perf.load.LoadDriver;
import io.okapigw.perf.load.LoadPlan;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * What every scenario stands on: a Vert.x (one context for the load), a directory for logs, the
 * child processes it starts (killed on close, also on Ctrl-C), the simulated library registered on
 * a gateway, load drivers. Its methods block: call them from the command's thread.
 */
final class Stage implements AutoCloseable {

  /** Patrons and items of the library (and of every {@code ModuleInstance}'s). */
  static final int SIZE = 1000;

  final FaultsOptions options;
  final Vertx vertx = Vertx.vertx();
  final Path dir;
  final Children children;
  private final Context context;
  private Library library;

  Stage(FaultsOptions options) throws IOException {
    this.options = options;
    this.dir = Files.createTempDirectory("okapigw-faults-");
    this.children = new Children(dir);
    this.context = vertx.getOrCreateContext();
  }

  /** Starts the simulated modules and the authtoken module here, registered on the gateway. */
  Library library(String gatewayUrl) {
    return library(gatewayUrl, null);
  }

  /**
   * As {@link #library(String)}, with an authtoken module running already ({@link AuthtokenJvm}).
   */
  Library library(String gatewayUrl, String authtokenUrl) {
    DemoOptions demo = new DemoOptions(0, SIZE, SIZE, true, true, dir);
    library = join(() -> Library.start(vertx, demo, gatewayUrl, authtokenUrl));
    return library;
  }

  /**
   * Starts one more instance of mod-users in a JVM of its own (its ports from {@code basePort +
   * offset} on) and waits until it answers.
   *
   * @param latency how late it answers every call; zero for at once
   */
  ModuleInstance usersInstance(String name, int offset, Duration latency)
      throws IOException, InterruptedException {
    ModuleInstance instance =
        new ModuleInstance(children, name, options.basePort() + offset, SIZE, latency);
    instance.start();
    return instance;
  }

  /**
   * Puts {@code instances} in the gateway's discovery as mod-users' instances ({@code srvcId-1},
   * {@code -2}, ... in this order), in place of those it had.
   *
   * @return the module id of mod-users
   */
  String useUsersInstances(String gatewayUrl, List<ModuleInstance> instances)
      throws IOException, InterruptedException {
    String srvcId = library.modules().deployment("mod-users").id();
    discovery(gatewayUrl)
        .replace(srvcId, instances.stream().map(ModuleInstance::usersUrl).toList());
    return srvcId;
  }

  /**
   * @return the gateway's discovery, as its super admin changes it
   */
  Discovery discovery(String gatewayUrl) {
    return new Discovery(gatewayUrl, superAdminToken(gatewayUrl));
  }

  /**
   * @return the token of the gateway's super admin (the library protects the admin API)
   */
  String superAdminToken(String gatewayUrl) {
    SuperAdmin admin = Library.superAdmin();
    BenchUser user =
        new BenchUser(SuperAdmin.TENANT, admin.username(), admin.password(), List.of());
    return join(() -> Logins.one(vertx, gatewayUrl, user));
  }

  /**
   * Logs the users in at the gateway and runs the warm-up.
   *
   * @param tenant a tenant without auth module runs without tokens
   */
  LoadDriver driver(
      String gatewayUrl, String tenant, int users, Duration warmup, List<BarcodeRow> rows) {
    return driver(List.of(gatewayUrl), tenant, users, warmup, rows);
  }

  /** As {@link #driver(String, String, int, Duration, List)}, the users spread over gateways. */
  LoadDriver driver(
      List<String> gatewayUrls, String tenant, int users, Duration warmup, List<BarcodeRow> rows) {
    LoadPlan plan =
        new LoadPlan(
            gatewayUrls.stream().map(URI::create).toList(),
            tenant,
            DemoOptions.ADMIN,
            DemoOptions.ADMIN_PASSWORD,
            users,
            warmup,
            options.phase(),
            0,
            options.maxOperations());
    return join(() -> LoadDriver.start(vertx, plan, rows, tenant));
  }

  /**
   * @return the phase, started on the load's context
   */
  <T> Future<T> start(Supplier<Future<T>> step) {
    Promise<T> done = Promise.promise();
    context.runOnContext(v -> step.get().onComplete(done));
    return done.future();
  }

  /** Runs {@code step} on the load's context and waits for it. */
  <T> T join(Supplier<Future<T>> step) {
    return join(start(step));
  }

  /**
   * Runs a long blocking step (a restart: a JVM starting on a busy machine may take minutes) on a
   * thread of its own, not one of Vert.x's workers, which would be reported as blocked.
   */
  <T> Future<T> inThread(String name, Callable<T> step) {
    Promise<T> done = Promise.promise();
    Thread thread =
        new Thread(
            () -> {
              try {
                done.complete(step.call());
              } catch (Exception e) {
                done.fail(e);
              }
            },
            name);
    thread.setDaemon(true);
    thread.start();
    return done.future();
  }

  static <T> T join(Future<T> future) {
    return future.toCompletionStage().toCompletableFuture().join();
  }

  @Override
  public void close() {
    if (library != null) {
      join(library.close().otherwiseEmpty());
    }
    children.close();
    join(vertx.close().otherwiseEmpty());
  }
}
