package io.okapigw.core.admin;

import io.okapigw.core.registry.ModuleDescriptor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The gateway's own module, {@code okapi-<version>}, described as Okapi 6.1.5 describes its own:
 * the admin API is its interface {@code okapi} 1.9, every endpoint with Okapi's permission name,
 * and Okapi's permission sets ({@code okapi.all}, {@code okapi.readonly}, ...). It is enabled for
 * the {@code supertenant} from the first start, so admin calls are routed, authorized and cached
 * like any module's calls once an auth module is enabled for the supertenant.
 */
public final class OkapiModule {

  /** The version of the {@code okapi} interface, as Okapi 6.1.5 provides it. */
  public static final String INTERFACE_VERSION = "1.9";

  /** What every okapi module id starts with. */
  public static final String ID_PREFIX = "okapi-";

  /**
   * One admin endpoint.
   *
   * @param method the HTTP method
   * @param pattern the path pattern
   * @param permission the permission it requires; null for none
   * @param ownTenantOpen whether a caller with a token for the tenant the path names (or, without
   *     {@code {tenantId}}, any caller with a token) needs no permission (Okapi's {@code
   *     permissionsRequiredTenant: []})
   * @param ownTenantPermission what such a caller needs instead of {@code permission} (Okapi's
   *     {@code permissionsRequiredTenant: [p]}); null for none
   */
  record Endpoint(
      String method,
      String pattern,
      String permission,
      boolean ownTenantOpen,
      String ownTenantPermission) {

    Endpoint(String method, String pattern, String permission, boolean ownTenantOpen) {
      this(method, pattern, permission, ownTenantOpen, null);
    }

    /** An endpoint whose caller, for its own tenant, needs {@code ownTenantPermission}. */
    static Endpoint ownTenant(
        String method, String pattern, String permission, String ownTenantPermission) {
      return new Endpoint(method, pattern, permission, false, ownTenantPermission);
    }

    JsonObject toJson() {
      JsonObject json =
          new JsonObject()
              .put("methods", new JsonArray().add(method))
              .put("pathPattern", pattern)
              .put("type", "internal")
              .put(
                  "permissionsRequired",
                  permission == null ? new JsonArray() : new JsonArray().add(permission));
      if (ownTenantPermission != null) {
        return json.put("permissionsRequiredTenant", new JsonArray().add(ownTenantPermission));
      }
      return ownTenantOpen ? json.put("permissionsRequiredTenant", new JsonArray()) : json;
    }
  }

  private static final String TENANT = "/_/proxy/tenants/{tenantId}";
  private static final String DISCOVERY = "/_/discovery/modules";
  private static final String HEALTH = "/_/discovery/health";
  private static final String DEPLOYMENT = "/_/deployment/modules";

  /** Every endpoint the admin API serves; {@code OkapiModuleTest} checks it against the routes. */
  static final List<Endpoint> ENDPOINTS =
      List.of(
          new Endpoint("POST", DISCOVERY, "okapi.discovery.post", false),
          new Endpoint("GET", DISCOVERY, "okapi.discovery.get", false),
          new Endpoint("GET", DISCOVERY + "/{serviceId}", "okapi.discovery.get", false),
          new Endpoint(
              "GET", DISCOVERY + "/{serviceId}/{instanceId}", "okapi.discovery.get", false),
          new Endpoint(
              "PUT", DISCOVERY + "/{serviceId}/{instanceId}", "okapi.discovery.put", false),
          new Endpoint("DELETE", DISCOVERY, "okapi.discovery.delete", false),
          new Endpoint("DELETE", DISCOVERY + "/{serviceId}", "okapi.discovery.delete", false),
          new Endpoint(
              "DELETE", DISCOVERY + "/{serviceId}/{instanceId}", "okapi.discovery.delete", false),
          new Endpoint("GET", HEALTH, "okapi.discovery.health.get", false),
          new Endpoint("GET", HEALTH + "/{serviceId}", "okapi.discovery.health.get", false),
          new Endpoint(
              "GET", HEALTH + "/{serviceId}/{instanceId}", "okapi.discovery.health.get", false),
          new Endpoint("POST", DEPLOYMENT, "okapi.deployment.post", false),
          new Endpoint("GET", DEPLOYMENT, "okapi.deployment.get", false),
          new Endpoint("GET", DEPLOYMENT + "/{instanceId}", "okapi.deployment.get", false),
          new Endpoint("DELETE", DEPLOYMENT + "/{instanceId}", "okapi.deployment.delete", false),
          new Endpoint("POST", "/_/env", "okapi.env.post", false),
          new Endpoint("GET", "/_/env", "okapi.env.list", false),
          new Endpoint("GET", "/_/env/{id}", "okapi.env.get", false),
          new Endpoint("DELETE", "/_/env/{id}", "okapi.env.delete", false),
          new Endpoint("GET", "/_/discovery/nodes", "okapi.discovery.nodes.get", false),
          new Endpoint("GET", "/_/discovery/nodes/{nodeId}", "okapi.discovery.nodes.get", false),
          new Endpoint("PUT", "/_/discovery/nodes/{nodeId}", "okapi.discovery.nodes.put", false),
          new Endpoint("POST", "/_/proxy/import/modules", "okapi.proxy.modules.post", false),
          new Endpoint("POST", "/_/proxy/pull/modules", "okapi.proxy.pull.modules.post", false),
          new Endpoint("POST", "/_/proxy/cleanup/modules", "okapi.proxy.cleanup.modules", false),
          new Endpoint("POST", "/_/proxy/modules", "okapi.proxy.modules.post", false),
          new Endpoint("GET", "/_/proxy/modules", "okapi.proxy.modules.list", false),
          new Endpoint("GET", "/_/proxy/modules/{moduleId}", "okapi.proxy.modules.get", false),
          new Endpoint(
              "DELETE", "/_/proxy/modules/{moduleId}", "okapi.proxy.modules.delete", false),
          new Endpoint("POST", "/_/proxy/tenants", "okapi.proxy.tenants.post", false),
          new Endpoint("GET", "/_/proxy/tenants", "okapi.proxy.tenants.list", false),
          new Endpoint("GET", TENANT, "okapi.proxy.tenants.get", false),
          new Endpoint("PUT", TENANT, "okapi.proxy.tenants.put", false),
          new Endpoint("DELETE", TENANT, "okapi.proxy.tenants.delete", false),
          new Endpoint("POST", TENANT + "/modules", "okapi.proxy.tenants.modules.post", false),
          new Endpoint("GET", TENANT + "/modules", "okapi.proxy.tenants.modules.list", true),
          new Endpoint(
              "GET",
              TENANT + "/modules/{moduleId}",
              "okapi.proxy.tenants.modules.enabled.get",
              true),
          new Endpoint(
              "DELETE",
              TENANT + "/modules/{moduleId}",
              "okapi.proxy.tenants.modules.enabled.delete",
              false),
          new Endpoint(
              "POST",
              TENANT + "/modules/{moduleId}",
              "okapi.proxy.tenants.modules.enabled.post",
              false),
          new Endpoint("DELETE", TENANT + "/modules", "okapi.proxy.tenants.modules.delete", false),
          new Endpoint("POST", TENANT + "/upgrade", "okapi.proxy.tenants.upgrade.post", false),
          new Endpoint("GET", TENANT + "/install", "okapi.proxy.tenants.install.list", false),
          new Endpoint("POST", TENANT + "/install", "okapi.proxy.tenants.install.post", false),
          new Endpoint("DELETE", TENANT + "/install", "okapi.proxy.tenants.install.delete", false),
          new Endpoint(
              "GET", TENANT + "/install/{installId}", "okapi.proxy.tenants.install.get", false),
          new Endpoint(
              "DELETE",
              TENANT + "/install/{installId}",
              "okapi.proxy.tenants.install.delete",
              false),
          new Endpoint("GET", TENANT + "/timers", "okapi.proxy.tenants.timers.list", true),
          Endpoint.ownTenant(
              "PATCH",
              TENANT + "/timers",
              "okapi.proxy.tenants.timers.patch",
              "okapi.proxy.self.timers.patch"),
          new Endpoint("GET", TENANT + "/timers/{timerId}", "okapi.proxy.tenants.timers.get", true),
          Endpoint.ownTenant(
              "PATCH",
              TENANT + "/timers/{timerId}",
              "okapi.proxy.tenants.timers.patch",
              "okapi.proxy.self.timers.patch"),
          new Endpoint("GET", TENANT + "/interfaces", "okapi.proxy.tenants.interfaces.list", true),
          new Endpoint(
              "GET",
              TENANT + "/interfaces/{interfaceId}",
              "okapi.proxy.tenants.interfaces.get",
              true),
          new Endpoint("GET", "/_/proxy/health", null, false),
          new Endpoint("GET", "/_/version", "okapi.version.get", true),
          new Endpoint("GET", "/_/metrics", null, false),
          new Endpoint("GET", "/_/proxy/auth-cache", "okapi.proxy.auth-cache.get", false),
          new Endpoint(
              "POST",
              "/_/proxy/auth-cache/invalidate",
              "okapi.proxy.auth-cache.invalidate",
              false));

  private OkapiModule() {}

  /**
   * @return the module id for a gateway version: {@code okapi-0.1.0}
   */
  public static String id(String version) {
    return ID_PREFIX + version;
  }

  /**
   * @return the descriptor of the okapi module of this gateway version
   */
  public static ModuleDescriptor descriptor(String version) {
    JsonArray handlers = new JsonArray();
    ENDPOINTS.forEach(e -> handlers.add(e.toJson()));
    return ModuleDescriptor.fromJson(
        new JsonObject()
            .put("id", id(version))
            .put("name", "Okapi")
            .put("requires", new JsonArray())
            .put(
                "provides",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("id", "okapi-proxy")
                            .put("version", INTERFACE_VERSION)
                            .put("interfaceType", "internal")
                            .put("handlers", new JsonArray()))
                    .add(
                        new JsonObject()
                            .put("id", "okapi")
                            .put("version", INTERFACE_VERSION)
                            .put("handlers", handlers)))
            .put("permissionSets", permissionSets()));
  }

  private static JsonArray permissionSets() {
    JsonArray sets = new JsonArray();
    Set<String> leaves = new LinkedHashSet<>();
    ENDPOINTS.forEach(
        e -> {
          leaves.add(e.permission());
          leaves.add(e.ownTenantPermission());
        });
    leaves.remove(null);
    leaves.forEach(
        p ->
            sets.add(
                new JsonObject()
                    .put("permissionName", p)
                    .put(
                        "displayName",
                        "Okapi - " + p.substring("okapi.".length()).replace('.', ' '))));
    sets.add(
        set(
            "okapi.deploy",
            "Okapi - Manage deployments",
            "okapi.deployment.post",
            "okapi.deployment.get",
            "okapi.deployment.delete",
            "okapi.discovery.post",
            "okapi.discovery.get",
            "okapi.discovery.put",
            "okapi.discovery.delete",
            "okapi.discovery.health.get",
            "okapi.discovery.nodes.get",
            "okapi.discovery.nodes.put"));
    sets.add(
        set(
            "okapi.env",
            "Okapi - Manage environment variables",
            "okapi.env.post",
            "okapi.env.delete",
            "okapi.env.list",
            "okapi.env.get"));
    sets.add(
        set(
            "okapi.modules",
            "Okapi - Manage modules",
            "okapi.proxy.modules.list",
            "okapi.proxy.modules.get",
            "okapi.proxy.modules.post",
            "okapi.proxy.modules.delete",
            "okapi.proxy.pull.modules.post",
            "okapi.proxy.cleanup.modules"));
    sets.add(
        set(
            "okapi.tenants",
            "Okapi - Manage tenants",
            "okapi.proxy.tenants.list",
            "okapi.proxy.tenants.get",
            "okapi.proxy.tenants.post",
            "okapi.proxy.tenants.put",
            "okapi.proxy.tenants.delete"));
    sets.add(
        set(
            "okapi.tenantmodules",
            "Okapi - Manage modules enabled for a tenant",
            "okapi.proxy.tenants.modules.list",
            "okapi.proxy.tenants.modules.post",
            "okapi.proxy.tenants.modules.enabled.get",
            "okapi.proxy.tenants.modules.enabled.post",
            "okapi.proxy.tenants.modules.enabled.delete",
            "okapi.proxy.tenants.modules.delete",
            "okapi.proxy.tenants.upgrade.post",
            "okapi.proxy.tenants.install.list",
            "okapi.proxy.tenants.install.get",
            "okapi.proxy.tenants.install.delete",
            "okapi.proxy.tenants.install.post"));
    sets.add(
        set(
            "okapi.timers",
            "Okapi - Timers",
            "okapi.proxy.tenants.timers.list",
            "okapi.proxy.tenants.timers.patch",
            "okapi.proxy.tenants.timers.get",
            "okapi.proxy.self.timers.patch"));
    sets.add(
        set(
            "okapi.interfaces",
            "Okapi - Module interfaces",
            "okapi.proxy.tenants.interfaces.list",
            "okapi.proxy.tenants.interfaces.get"));
    sets.add(
        set(
            "okapi.auth-cache",
            "Okapi - Read and invalidate the auth cache",
            "okapi.proxy.auth-cache.get",
            "okapi.proxy.auth-cache.invalidate"));
    sets.add(
        set(
            "okapi.readonly",
            "Okapi - Read only permissions",
            "okapi.proxy.modules.list",
            "okapi.proxy.modules.get",
            "okapi.proxy.tenants.list",
            "okapi.proxy.tenants.get",
            "okapi.proxy.tenants.modules.list",
            "okapi.proxy.tenants.modules.enabled.get",
            "okapi.interfaces",
            "okapi.version.get"));
    sets.add(
        set(
            "okapi.all",
            "Okapi - All permissions",
            "okapi.deploy",
            "okapi.modules",
            "okapi.tenants",
            "okapi.tenantmodules",
            "okapi.interfaces",
            "okapi.timers",
            "okapi.auth-cache",
            "okapi.env",
            "okapi.version.get"));
    return sets;
  }

  private static JsonObject set(String name, String displayName, String... subPermissions) {
    return new JsonObject()
        .put("permissionName", name)
        .put("displayName", displayName)
        .put("subPermissions", new JsonArray(List.of((Object[]) subPermissions)));
  }
}
