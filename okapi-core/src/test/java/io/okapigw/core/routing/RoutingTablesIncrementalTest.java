package io.okapigw.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.registry.ChangeScope;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.VersionFilter;
import io.okapigw.testsupport.Descriptors;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A registry change recompiles only the tables it touched (issue 45): with hundreds of tenants,
 * every change recompiled every tenant's table, on the event loop, so an install's time grew with
 * the number of tenants and other tenants' requests stalled meanwhile. Compilations are counted
 * (the {@code onCompile} hook), never timed.
 */
class RoutingTablesIncrementalTest {

  private static final int TENANTS = 20;
  private static final String A = "mod-a-1.0.0";
  private static final String B = "mod-b-1.0.0";

  private Vertx vertx;
  private RegistryStore store;
  private Registry registry;
  private RoutingTables tables;
  private final List<String> compiled = Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void setUp() {
    // one event loop: a table compiled on it would stall every request of this Vert.x
    vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    store = RegistryStore.inMemory();
    registry = new Registry(vertx, store);
    tables = new RoutingTables(vertx, store, () -> false, null);
    registry.onChange(change -> tables.apply(change.scope()));
    registry
        .addModules(List.of(module(A, "a", "/a"), module(B, "b", "/b")), true, VersionFilter.ALL)
        .await();
    for (int i = 0; i < TENANTS; i++) {
      registry.addTenant(new JsonObject().put("id", tenant(i))).await();
      registry.tenantModules().commit(tenant(i), null, A).await();
    }
    tables.rebuild().await();
    tables.onCompile(compiled::add);
  }

  @AfterEach
  void tearDown() {
    vertx.close().await();
  }

  private static String tenant(int i) {
    return "t" + i;
  }

  private static ModuleDescriptor module(String id, String itf, String path) {
    return ModuleDescriptor.fromJson(
        Descriptors.module(id, itf, Descriptors.handler("GET", path, itf + ".get")));
  }

  private boolean routes(String tenant, String path) {
    return tables.forTenant(tenant).orElseThrow().match("GET", path, null).isPresent();
  }

  @Test
  void enable_compilesThatTenantsTableOnly() {
    registry.tenantModules().commit("t5", null, B).await();

    assertThat(compiled).containsExactly("t5");
    assertThat(routes("t5", "/b")).as("t5 routes /b").isTrue();
    assertThat(routes("t6", "/b")).as("t6 routes /b").isFalse();
  }

  @Test
  void disableAndTenantCreatedOrDeleted_compileThatTenantOnly() {
    registry.tenantModules().commit("t3", A, null).await();
    registry.addTenant(new JsonObject().put("id", "fresh")).await();
    registry.deleteTenant("t4").await();

    assertThat(compiled).containsExactly("t3", "fresh");
    assertThat(routes("t3", "/a")).isFalse();
    assertThat(tables.forTenant("fresh")).isPresent();
    assertThat(tables.forTenant("t4")).isEmpty();
    assertThat(routes("t2", "/a")).isTrue();
  }

  @Test
  void instancesOfAModuleChange_compilesTheTenantsUsingItOnly() {
    for (int i = 0; i < 3; i++) {
      registry.tenantModules().commit(tenant(i), null, B).await();
    }
    compiled.clear();

    registry
        .discovery()
        .add(
            new JsonObject()
                .put("srvcId", B)
                .put("instId", "b-1")
                .put("url", "http://localhost:9131"))
        .await();

    assertThat(compiled).containsExactlyInAnyOrder("t0", "t1", "t2");
    Stage handler =
        tables.forTenant("t1").orElseThrow().match("GET", "/b", null).orElseThrow().handler();
    assertThat(handler.instances().endpoints())
        .extracting(Endpoint::url)
        .containsExactly("http://localhost:9131");
  }

  @Test
  void descriptorNobodyEnables_compilesNothing_oneEnabledMissing_compilesItsUsers() {
    store.setEnabledModules("t7", List.of(A, "mod-late-1.0.0")).await();
    tables.apply(ChangeScope.tenants("t7")).await();
    assertThat(tables.forTenant("t7").orElseThrow().unavailableReason()).isPresent();
    compiled.clear();

    registry
        .addModules(List.of(module("mod-other-1.0.0", "other", "/other")), true, VersionFilter.ALL)
        .await();
    assertThat(compiled).as("a module nobody enables").isEmpty();

    registry
        .addModules(List.of(module("mod-late-1.0.0", "late", "/late")), true, VersionFilter.ALL)
        .await();
    assertThat(compiled).as("the module t7 enabled, now registered").containsExactly("t7");
    assertThat(routes("t7", "/late")).isTrue();
  }

  @Test
  void changesArrivingDuringABuild_areBuiltTogether() throws Exception {
    CountDownLatch building = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    tables.onCompile(
        tenant -> {
          compiled.add(tenant);
          if (building.getCount() > 0) {
            building.countDown();
            await(release);
          }
        });
    Future<Void> first = tables.apply(ChangeScope.tenants("t0"));
    assertThat(building.await(10, TimeUnit.SECONDS)).as("the first build started").isTrue();
    List<Future<Void>> later = new ArrayList<>();
    for (int round = 0; round < 10; round++) {
      for (int i = 1; i <= 3; i++) {
        later.add(tables.apply(ChangeScope.tenants(tenant(i))));
      }
    }
    release.countDown();
    first.await();
    Future.all(later).await();

    // 31 changes: today 31 builds of every tenant (620 tables); now the first, then one for the 30
    assertThat(compiled).hasSize(4).containsExactlyInAnyOrder("t0", "t1", "t2", "t3");
  }

  @Test
  void aLargeRebuild_requestsServedMeanwhileFromTheLastSnapshot() throws Exception {
    HttpServer server =
        vertx
            .createHttpServer()
            .requestHandler(
                req ->
                    req.response()
                        .end(routes(req.getParam("tenant"), req.path()) ? "routed" : "not routed"))
            .listen(0, "localhost")
            .await();
    CountDownLatch building = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    tables.onCompile(
        tenant -> {
          building.countDown();
          await(release);
        });
    store.setEnabledModules("t9", List.of(A, B)).await();
    // started on the event loop, as an admin call starts it
    Promise<Void> rebuilt = Promise.promise();
    vertx
        .getOrCreateContext()
        .runOnContext(v -> tables.apply(ChangeScope.all()).onComplete(rebuilt));
    assertThat(building.await(10, TimeUnit.SECONDS)).as("the rebuild started").isTrue();

    String during = get(server.actualPort(), "t9");
    release.countDown();
    rebuilt.future().await();

    assertThat(during)
        .as("answered during the rebuild, from the last snapshot")
        .isEqualTo("not routed");
    assertThat(get(server.actualPort(), "t9")).as("after it").isEqualTo("routed");
  }

  private static String get(int port, String tenant) throws Exception {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/b?tenant=" + tenant))
            .timeout(Duration.ofSeconds(5))
            .build();
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
    } catch (java.net.http.HttpTimeoutException e) {
      return "no answer within 5 s: the event loop is blocked";
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(20, TimeUnit.SECONDS)) {
        throw new IllegalStateException("never released");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
