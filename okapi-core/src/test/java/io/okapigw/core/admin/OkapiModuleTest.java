package io.okapigw.core.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.core.auth.AuthFilterClient;
import io.okapigw.core.callback.CallBacks;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.cluster.ClusterInvalidator;
import io.okapigw.core.deployment.DeploymentOptions;
import io.okapigw.core.deployment.Deployments;
import io.okapigw.core.deployment.EnvStore;
import io.okapigw.core.deployment.Environment;
import io.okapigw.core.deployment.NodeDeployer;
import io.okapigw.core.health.NodeReadiness;
import io.okapigw.core.install.Installer;
import io.okapigw.core.pull.Pull;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.routing.RoutingTables;
import io.okapigw.core.server.Drain;
import io.okapigw.core.server.DrainOptions;
import io.okapigw.core.tenantinit.SystemCalls;
import io.okapigw.core.tenantinit.TenantInit;
import io.okapigw.core.tenantinit.TenantInitOptions;
import io.okapigw.core.timer.Scheduler;
import io.okapigw.core.timer.TimerService;
import io.okapigw.core.timer.TimerStore;
import io.okapigw.core.upstream.CallObserver;
import io.okapigw.core.upstream.ModuleClient;
import io.okapigw.core.upstream.UpstreamOptions;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The okapi module's descriptor and the admin API's routes are one and the same list. */
class OkapiModuleTest {

  @Test
  void everyAdminRoute_hasItsHandlerAndPermissionInTheDescriptor_andNoMore() {
    Vertx vertx = Vertx.vertx();
    try {
      RegistryStore store = RegistryStore.inMemory();
      PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      AuthCache cache = AuthCache.create(AuthCacheOptions.defaults(), metrics);
      ClusterBus bus = ClusterBus.create(vertx, Duration.ofSeconds(1));
      Registry registry = new Registry(vertx, store);
      ModuleClient modules =
          ModuleClient.create(vertx, UpstreamOptions.defaults(), CallObserver.NONE);
      SystemCalls calls =
          new SystemCalls(
              modules,
              new AuthFilterClient(modules, Duration.ofSeconds(3)),
              store,
              "http://x:1",
              CallBacks.create());
      Environment environment = new Environment(EnvStore.shared(vertx));
      Deployments deployments =
          new Deployments(
              vertx,
              bus,
              new NodeDeployer(
                  vertx,
                  DeploymentOptions.defaults(9130),
                  bus.nodeId(),
                  registry.discovery(),
                  environment,
                  modules),
              registry);
      Installer installer =
          new Installer(
              vertx,
              registry,
              store,
              new TenantInit(vertx, calls, TenantInitOptions.defaults(), Clock.systemUTC()),
              bus,
              1000,
              deployments);
      TimerService timers =
          TimerService.create(
                  vertx,
                  store,
                  TimerStore.shared(vertx).await(),
                  bus,
                  Scheduler.system(vertx),
                  calls,
                  metrics)
              .await();
      Router router =
          AdminApi.router(
              vertx,
              List.of(
                  AdminRoutes.modules(
                      registry, new Pull(vertx, registry, 1024 * 1024, 1024 * 1024)),
                  AdminRoutes.tenants(registry, installer),
                  AdminRoutes.discovery(registry, bus, modules, deployments),
                  AdminRoutes.deployment(deployments.node(), environment),
                  AdminRoutes.timers(timers),
                  AdminRoutes.authCache(cache, ClusterInvalidator.start(vertx, cache, bus).await()),
                  AdminRoutes.node(
                      "1.0.0",
                      bus,
                      new AdminExposure(new RoutingTables(store), AdminOptions.defaults(), "x:1"),
                      metrics,
                      new NodeReadiness(
                          new Drain(DrainOptions.defaults()), java.util.Optional::empty))));
      Set<String> routes = new TreeSet<>();
      for (Route route : router.getRoutes()) {
        if (route.methods() != null && route.getPath() != null) {
          route.methods().forEach(m -> routes.add(m.name() + " " + normalize(route.getPath())));
        }
      }
      Set<String> described = new TreeSet<>();
      OkapiModule.ENDPOINTS.forEach(e -> described.add(e.method() + " " + normalize(e.pattern())));
      assertThat(routes).isEqualTo(described);
    } finally {
      vertx.close().await();
    }
  }

  @Test
  void descriptor_okapiInterface19_withOkapisPermissionNamesAndSets() {
    var descriptor = OkapiModule.descriptor("2.3.4");
    assertThat(descriptor.id()).isEqualTo("okapi-2.3.4");
    assertThat(descriptor.providedInterface("okapi").orElseThrow().version()).isEqualTo("1.9");
    assertThat(descriptor.providedInterface("okapi").orElseThrow().handlers())
        .anySatisfy(
            h -> {
              assertThat(h.pathPattern()).isEqualTo("/_/proxy/tenants/{tenantId}/modules");
              assertThat(h.methods()).containsExactly("POST");
              assertThat(h.permissionsRequired())
                  .containsExactly("okapi.proxy.tenants.modules.post");
            });
    assertThat(
            descriptor.permissionSets().stream()
                .map(s -> ((io.vertx.core.json.JsonObject) s).getString("permissionName")))
        .contains(
            "okapi.all",
            "okapi.readonly",
            "okapi.modules",
            "okapi.tenants",
            "okapi.tenantmodules",
            "okapi.deploy",
            "okapi.discovery.post");
  }

  @Test
  void descriptor_timerEndpoints_withOkapisPermissionsAndOwnTenantPermission() {
    var handlers =
        OkapiModule.descriptor("2.3.4").providedInterface("okapi").orElseThrow().handlers();
    assertThat(handlers)
        .filteredOn(h -> h.pathPattern().contains("/timers"))
        .extracting(
            h ->
                h.methods().get(0)
                    + " "
                    + h.pathPattern()
                    + " "
                    + h.permissionsRequired()
                    + " "
                    + h.permissionsRequiredTenant())
        .containsExactlyInAnyOrder(
            "GET /_/proxy/tenants/{tenantId}/timers [okapi.proxy.tenants.timers.list] []",
            "PATCH /_/proxy/tenants/{tenantId}/timers [okapi.proxy.tenants.timers.patch]"
                + " [okapi.proxy.self.timers.patch]",
            "GET /_/proxy/tenants/{tenantId}/timers/{timerId} [okapi.proxy.tenants.timers.get] []",
            "PATCH /_/proxy/tenants/{tenantId}/timers/{timerId} [okapi.proxy.tenants.timers.patch]"
                + " [okapi.proxy.self.timers.patch]");
    var sets = OkapiModule.descriptor("2.3.4").permissionSets();
    assertThat(
            sets.stream()
                .map(s -> (io.vertx.core.json.JsonObject) s)
                .filter(s -> s.getString("permissionName").equals("okapi.timers"))
                .findFirst()
                .orElseThrow()
                .getJsonArray("subPermissions"))
        .containsExactlyInAnyOrder(
            "okapi.proxy.tenants.timers.list", "okapi.proxy.tenants.timers.patch",
            "okapi.proxy.tenants.timers.get", "okapi.proxy.self.timers.patch");
    assertThat(
            sets.stream()
                .map(s -> (io.vertx.core.json.JsonObject) s)
                .filter(s -> s.getString("permissionName").equals("okapi.all"))
                .findFirst()
                .orElseThrow()
                .getJsonArray("subPermissions"))
        .contains("okapi.timers");
    assertThat(
            sets.stream().map(s -> ((io.vertx.core.json.JsonObject) s).getString("permissionName")))
        .contains("okapi.proxy.self.timers.patch");
  }

  private static String normalize(String path) {
    return path.replaceAll("\\{[^}]+}|:[A-Za-z]+", "{}");
  }
}
