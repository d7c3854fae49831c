package io.okapigw.core.eureka.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Settings;
import io.okapigw.core.auth.AuthFilterClient;
import io.okapigw.core.callback.CallBacks;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.eureka.EurekaCalls;
import io.okapigw.core.eureka.EurekaOptions;
import io.okapigw.core.eureka.ServiceTokens;
import io.okapigw.core.install.AutoDeploy;
import io.okapigw.core.install.Installer;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.tenantinit.SystemCalls;
import io.okapigw.core.tenantinit.TenantInit;
import io.okapigw.core.tenantinit.TenantInitOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.upstream.CallObserver;
import io.okapigw.core.upstream.ModuleClient;
import io.okapigw.core.upstream.UpstreamOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 46: {@code {env}.entitlement} events for several modules and tenants at once, on two
 * "nodes" (two followers over the one registry, as a cluster's nodes share it), in a random order
 * and with mgr-tenant-entitlements and mgr-applications (stand-ins in their documented JSON)
 * answering after random delays: once every event is handled, each tenant has exactly the modules
 * entitled to it, each with its one instance. A tenant that exists before any event is read at
 * once: nothing waits for {@code eureka.entitlements-refresh} (a day here).
 */
class EntitlementsRaceTest {

  private static final int ROUNDS = 8;

  private final Vertx vertx = Vertx.vertx();
  private final Random random = new Random();
  private final Map<String, Map<String, JsonObject>> entitled = new ConcurrentHashMap<>();
  private final Set<String> tenants = new CopyOnWriteArraySet<>();
  private final List<Entitlements> nodes = new ArrayList<>();
  private Registry registry;

  @BeforeEach
  void start() {
    Router router = Router.router(vertx);
    router
        .get("/entitlements/:tenant/applications")
        .handler(
            ctx -> {
              JsonArray apps =
                  new JsonArray(
                      new ArrayList<>(
                          entitled.getOrDefault(ctx.pathParam("tenant"), Map.of()).values()));
              later(() -> ctx.json(new JsonObject().put("applicationDescriptors", apps)));
            });
    router
        .get("/applications/:app/discovery")
        .handler(
            ctx -> {
              String module = module(ctx.pathParam("app"));
              JsonObject found =
                  new JsonObject()
                      .put("id", module)
                      .put("name", module.replaceAll("-[0-9.]+$", ""))
                      .put("location", location(module));
              later(() -> ctx.json(new JsonObject().put("discovery", new JsonArray().add(found))));
            });
    int port =
        vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await().actualPort();
    String url = "http://127.0.0.1:" + port;
    EurekaOptions options =
        EurekaOptions.from(
            Settings.of(
                Map.of(
                    "eureka.keycloak-url",
                    "http://127.0.0.1:1",
                    "eureka.entitlements-url",
                    url,
                    "eureka.applications-url",
                    url,
                    "eureka.entitlements-refresh",
                    "1d")));
    RegistryStore store = slow(RegistryStore.inMemory());
    registry = new Registry(vertx, store);
    ModuleClient modules =
        ModuleClient.create(vertx, UpstreamOptions.defaults(), CallObserver.NONE);
    SystemCalls calls =
        new SystemCalls(
            modules,
            new AuthFilterClient(modules, Duration.ofSeconds(3)),
            store,
            "http://x:1",
            CallBacks.create());
    Installer installer =
        new Installer(
            vertx,
            registry,
            store,
            new TenantInit(vertx, calls, TenantInitOptions.defaults(), Clock.systemUTC()),
            ClusterBus.create(vertx, Duration.ofSeconds(1)),
            30_000,
            AutoDeploy.NONE);
    ServiceTokens tokens =
        new ServiceTokens(
            new EurekaCalls(modules, options),
            options,
            com.github.benmanes.caffeine.cache.Ticker.systemTicker());
    ReaderRole role =
        ReaderRole.start(vertx, ClusterBus.create(vertx, Duration.ofSeconds(1)), true).await();
    for (int i = 0; i < 2; i++) {
      nodes.add(
          Entitlements.start(
              vertx,
              options,
              new EurekaCalls(modules, "mgr-tenant-entitlements", url, options),
              new EurekaCalls(modules, "mgr-applications", url, options),
              tokens,
              registry,
              installer,
              () -> Set.copyOf(tenants),
              role));
    }
  }

  @AfterEach
  void stop() {
    nodes.forEach(Entitlements::close);
    vertx.close().await();
  }

  /**
   * The store answering each call after 0 to 2 ms, as a cluster's maps answer over the network (an
   * in-memory store answers at once, leaving no moment between a read and the write after it).
   */
  private RegistryStore slow(RegistryStore store) {
    return (RegistryStore)
        java.lang.reflect.Proxy.newProxyInstance(
            RegistryStore.class.getClassLoader(),
            new Class<?>[] {RegistryStore.class},
            (proxy, method, args) -> {
              Object result;
              try {
                result = method.invoke(store, args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
              if (!(result instanceof Future<?> future)) {
                return result;
              }
              io.vertx.core.Promise<Object> later = io.vertx.core.Promise.promise();
              future.onComplete(
                  done ->
                      vertx.setTimer(1 + random.nextInt(2), id -> later.handle(done.map(x -> x))));
              return later.future();
            });
  }

  /** A stand-in's answer after 0 to 20 ms, so that the nodes' reads and writes interleave. */
  private void later(Runnable answer) {
    vertx.setTimer(1 + random.nextInt(20), id -> answer.run());
  }

  private static String module(String app) {
    return app.replace("app-", "mod-");
  }

  private static String location(String module) {
    return "http://127.0.0.1:1/" + module;
  }

  private static JsonObject app(String name, String version) {
    String module = "mod-" + name + "-" + version;
    return new JsonObject()
        .put("id", "app-" + name + "-" + version)
        .put("name", "app-" + name)
        .put("version", version)
        .put(
            "moduleDescriptors",
            new JsonArray()
                .add(
                    GatewayFixture.module(
                        module, name, GatewayFixture.handler("GET", "/" + name))));
  }

  private void entitle(String tenant, JsonObject app) {
    entitled.computeIfAbsent(tenant, t -> new LinkedHashMap<>()).put(app.getString("name"), app);
  }

  private void revoke(String tenant, String appName) {
    entitled.get(tenant).remove(appName);
  }

  private static JsonObject event(String tenant, String type, String moduleId) {
    return new JsonObject().put("tenantName", tenant).put("type", type).put("moduleId", moduleId);
  }

  /**
   * One tenant's changes as mgr-tenant-entitlements makes them: each entitlement changed first, its
   * event sent after; the events left to {@code send}.
   */
  private List<Runnable> changes(String tenant, boolean revokeC, Consumer<JsonObject> send) {
    List<Runnable> steps = new ArrayList<>();
    for (String name : List.of("a", "b", "c")) {
      steps.add(
          () -> {
            entitle(tenant, app(name, "1.0.0"));
            send.accept(event(tenant, "ENTITLE", "mod-" + name + "-1.0.0"));
          });
    }
    steps.add(
        () -> {
          entitle(tenant, app("a", "2.0.0"));
          send.accept(event(tenant, "UPGRADE", "mod-a-2.0.0"));
        });
    if (revokeC) {
      steps.add(
          () -> {
            revoke(tenant, "app-c");
            send.accept(event(tenant, "REVOKE", "mod-c-1.0.0"));
          });
    }
    return steps;
  }

  /** The events to a random node, each on a context of its own, as Kafka's thread hands them. */
  private java.util.concurrent.CompletableFuture<Void> send(JsonObject event) {
    Entitlements node = nodes.get(random.nextInt(nodes.size()));
    java.util.concurrent.CompletableFuture<Void> handled =
        new java.util.concurrent.CompletableFuture<>();
    node.accept(event).onComplete(done -> handled.complete(null));
    return handled;
  }

  private Set<String> enabled(String tenant) {
    Set<String> ids = new TreeSet<>();
    registry.tenantModules().enabled(tenant).await().forEach(m -> ids.add(m.id()));
    return ids;
  }

  @Test
  void concurrentEntitleUpgradeRevoke_twoNodes_everyTenantEndsWithItsEntitledModules() {
    for (int round = 0; round < ROUNDS; round++) {
      String a = "r" + round + "a";
      String b = "r" + round + "b";
      for (String tenant : List.of(a, b)) {
        registry.addTenant(new JsonObject().put("id", tenant)).await();
        tenants.add(tenant);
      }
      List<java.util.concurrent.CompletableFuture<Void>> handled =
          Collections.synchronizedList(new ArrayList<>());
      Consumer<JsonObject> send = event -> handled.add(send(event));
      List<Runnable> ofA = changes(a, true, send);
      List<Runnable> ofB = changes(b, false, send);
      run(interleave(ofA, ofB)).join();
      java.util.concurrent.CompletableFuture.allOf(
              handled.toArray(java.util.concurrent.CompletableFuture[]::new))
          .join();

      assertThat(enabled(a))
          .as("round %d, tenant %s", round, a)
          .containsExactly("mod-a-2.0.0", "mod-b-1.0.0");
      assertThat(enabled(b))
          .as("round %d, tenant %s", round, b)
          .containsExactly("mod-a-2.0.0", "mod-b-1.0.0", "mod-c-1.0.0");
    }
    Map<String, List<String>> urls = new LinkedHashMap<>();
    for (DeploymentDescriptor d : registry.discovery().instances(null).await()) {
      urls.computeIfAbsent(d.srvcId(), s -> new ArrayList<>()).add(d.url());
    }
    for (String module : List.of("mod-a-2.0.0", "mod-b-1.0.0", "mod-c-1.0.0")) {
      assertThat(urls.get(module)).as(module).containsExactly(location(module));
    }
    assertThat(registry.modules().await().stream().map(ModuleDescriptor::id))
        .contains("mod-a-1.0.0", "mod-a-2.0.0", "mod-b-1.0.0", "mod-c-1.0.0");
  }

  /**
   * Runs the steps one after another, 0 to 15 ms apart (mgr-tenant-entitlements' pace: an
   * application's modules entitled in one go, the next change a moment later).
   */
  private java.util.concurrent.CompletableFuture<Void> run(List<Runnable> steps) {
    java.util.concurrent.CompletableFuture<Void> done =
        new java.util.concurrent.CompletableFuture<>();
    step(steps, 0, done);
    return done;
  }

  private void step(
      List<Runnable> steps, int i, java.util.concurrent.CompletableFuture<Void> done) {
    if (i == steps.size()) {
      done.complete(null);
      return;
    }
    vertx.setTimer(
        1 + random.nextInt(15),
        id -> {
          steps.get(i).run();
          step(steps, i + 1, done);
        });
  }

  /** The two lists merged at random, each list's order kept. */
  private List<Runnable> interleave(List<Runnable> first, List<Runnable> second) {
    List<Runnable> merged = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < first.size() || j < second.size()) {
      boolean takeFirst = j >= second.size() || (i < first.size() && random.nextBoolean());
      merged.add(takeFirst ? first.get(i++) : second.get(j++));
    }
    return Collections.unmodifiableList(merged);
  }
}
