package io.okapigw.core.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.cluster.ClusterInvalidator;
import io.okapigw.core.deployment.Deployments;
import io.okapigw.core.deployment.Environment;
import io.okapigw.core.deployment.NodeDeployer;
import io.okapigw.core.health.NodeReadiness;
import io.okapigw.core.install.Installer;
import io.okapigw.core.pull.Pull;
import io.okapigw.core.registry.Registry;
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
   * @param pull copies the descriptors another Okapi has
   * @return {@code /_/proxy/modules}, {@code /_/proxy/import/modules}, {@code
   *     /_/proxy/pull/modules} and {@code /_/proxy/cleanup/modules}
   */
  static AdminRoutes modules(Registry registry, Pull pull) {
    return new ModulesApi(registry, pull);
  }

  /**
   * @return {@code /_/proxy/tenants}: tenants, their modules and interfaces, install and upgrade
   */
  static AdminRoutes tenants(Registry registry, Installer installer) {
    return new TenantsApi(registry, installer);
  }

  /**
   * @param modules opens the health checks' connections
   * @param deployments deploys and undeploys instances with a {@code nodeId}
   * @return {@code /_/discovery}: instances, their health, the nodes
   */
  static AdminRoutes discovery(
      Registry registry, ClusterBus bus, ModuleClient modules, Deployments deployments) {
    return new DiscoveryApi(
        registry, bus, new InstanceHealth(modules, InstanceHealth.TIMEOUT), deployments);
  }

  /**
   * @return {@code /_/deployment/modules} (this node's deployed modules) and {@code /_/env}
   */
  static AdminRoutes deployment(NodeDeployer node, Environment environment) {
    return new DeploymentApi(node, environment);
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
   * @param readiness whether the node is ready (it drains, its cluster view), for the health answer
   * @return {@code /_/version}, {@code /_/proxy/health} and {@code /_/metrics}
   */
  static AdminRoutes node(
      String version,
      ClusterBus bus,
      AdminExposure exposure,
      PrometheusMeterRegistry metrics,
      NodeReadiness readiness) {
    return new NodeApi(version, bus, exposure, metrics, readiness);
  }
}
