package io.okapigw.core.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.cluster.ClusterInvalidator;
import io.okapigw.core.install.Installer;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.server.Drain;
import io.okapigw.core.timer.TimerService;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.ext.web.Router;

/**
 * One group of the admin API's routes, given what it needs and nothing more; the node assembles the
 * groups into the admin API ({@link AdminApi#router}).
 */
public interface AdminRoutes {

  /** Adds the group's routes to {@code router}. */
  void mount(Router router);

  /**
   * @return {@code /_/proxy/modules} and {@code /_/proxy/import/modules}
   */
  static AdminRoutes modules(Registry registry) {
    return new ModulesApi(registry);
  }

  /**
   * @return {@code /_/proxy/tenants}: tenants, their modules and interfaces, install and upgrade
   */
  static AdminRoutes tenants(Registry registry, Installer installer) {
    return new TenantsApi(registry, installer);
  }

  /**
   * @param modules opens the health checks' connections
   * @return {@code /_/discovery}: instances, their health, the nodes
   */
  static AdminRoutes discovery(Registry registry, ClusterBus bus, ModuleClient modules) {
    return new DiscoveryApi(registry, bus, new InstanceHealth(modules, InstanceHealth.TIMEOUT));
  }

  /**
   * @return Okapi's timer API, {@code /_/proxy/tenants/{tenant}/timers}
   */
  static AdminRoutes timers(TimerService timers) {
    return new TimersApi(timers);
  }

  /**
   * @param invalidator applies an invalidation on every node of the cluster
   * @return {@code /_/proxy/auth-cache}: counters and invalidation
   */
  static AdminRoutes authCache(AuthCache cache, ClusterInvalidator invalidator) {
    return new AuthCacheApi(cache, invalidator);
  }

  /**
   * @param version the gateway's version
   * @param bus the cluster, for the health answer
   * @param exposure whether the admin API is protected, for the health answer
   * @param metrics the node's meters
   * @param drain whether the node drains, for the health answer
   * @return {@code /_/version}, {@code /_/proxy/health} and {@code /_/metrics}
   */
  static AdminRoutes node(
      String version,
      ClusterBus bus,
      AdminExposure exposure,
      PrometheusMeterRegistry metrics,
      Drain drain) {
    return new NodeApi(version, bus, exposure, metrics, drain);
  }
}
