package io.okapigw.core.routing;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.AuthKind;
import io.okapigw.core.registry.InterfaceDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RoutingEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One tenant's routes, compiled from its enabled modules. Immutable; replaced as a whole when the
 * registry changes. As in Okapi, handlers of {@code multiple} interfaces are reachable only by
 * naming their module in {@code X-Okapi-Module-Id}, and then nothing else is.
 */
public final class RoutingTable {

  /** The system interface through which a permissions module learns the permission sets. */
  public static final String TENANT_PERMISSIONS = "_tenantPermissions";

  private final String tenant;
  private final AuthKind auth;
  private final HandlerIndex handlers;
  private final Map<String, HandlerIndex> multiple;
  private final List<Route> filters;
  private final Map<String, Instances> instances;
  private final boolean systemPermissionSets;
  private final Map<String, String> systemUsers;
  private final String unavailable;
  private final String servedAnyway;

  private RoutingTable(
      String tenant,
      AuthKind auth,
      HandlerIndex handlers,
      Map<String, HandlerIndex> multiple,
      List<Route> filters,
      Map<String, Instances> instances,
      boolean systemPermissionSets,
      Map<String, String> systemUsers,
      String unavailable,
      String servedAnyway) {
    this.tenant = tenant;
    this.unavailable = unavailable;
    this.servedAnyway = servedAnyway;
    this.systemUsers = systemUsers;
    this.auth = auth;
    this.handlers = handlers;
    this.multiple = multiple;
    this.filters = filters;
    this.instances = instances;
    this.systemPermissionSets = systemPermissionSets;
  }

  /**
   * Compiles a tenant's table.
   *
   * @param tenant the tenant
   * @param auth who decides on the tenant's requests
   * @param enabled the tenant's modules in enable order
   * @param instances module id to its instances
   */
  static RoutingTable compile(
      String tenant,
      AuthKind auth,
      List<ModuleDescriptor> enabled,
      Map<String, Instances> instances) {
    HandlerIndex handlers = new HandlerIndex();
    Map<String, HandlerIndex> multiple = new HashMap<>();
    List<Route> filters = new ArrayList<>();
    boolean systemSets = false;
    Map<String, String> systemUsers = new HashMap<>();
    for (ModuleDescriptor module : enabled) {
      module.systemUser().ifPresent(user -> systemUsers.put(module.id(), user));
      for (InterfaceDescriptor itf : module.provides()) {
        systemSets |= TENANT_PERMISSIONS.equals(itf.id()) && !"1.0".equals(itf.version());
        if (itf.isSystem()) {
          continue;
        }
        HandlerIndex index =
            "multiple".equals(itf.interfaceType())
                ? multiple.computeIfAbsent(module.id(), id -> new HandlerIndex())
                : handlers;
        itf.handlers().stream()
            .filter(RoutingEntry::routable)
            .forEach(h -> index.add(Route.of(module.id(), h, tenant)));
      }
      module.filters().stream()
          .filter(RoutingEntry::routable)
          .forEach(f -> filters.add(Route.of(module.id(), f, tenant)));
    }
    multiple.values().forEach(HandlerIndex::sorted);
    return new RoutingTable(
        tenant,
        auth,
        handlers.sorted(),
        Map.copyOf(multiple),
        List.copyOf(filters),
        instances,
        systemSets,
        Map.copyOf(systemUsers),
        null,
        null);
  }

  /**
   * A table that serves nothing: every request of the tenant is answered 503 with {@code reason}.
   * What a node compiles for a tenant whose registry entries it cannot all see (a module enabled
   * for it that this node's copy lacks, its auth filter gone while the node is cut off from its
   * cluster): serving the routes it sees could serve them without the tenant's auth filter.
   *
   * @param builtIn the module built into the gateway (the okapi module), whose handlers that need
   *     no permission ({@code /_/proxy/health}, {@code /_/metrics}) are still served, or null
   */
  RoutingTable unavailable(String reason, String builtIn) {
    return new RoutingTable(
        tenant,
        auth,
        handlers,
        multiple,
        filters,
        instances,
        systemPermissionSets,
        systemUsers,
        reason,
        builtIn);
  }

  /**
   * @return why the tenant is served 503 ({@link #unavailable}), or empty when it is served
   */
  public Optional<String> unavailableReason() {
    return Optional.ofNullable(unavailable);
  }

  /**
   * @return whether the table has an auth filter (phase {@code auth})
   */
  boolean hasAuthFilter() {
    for (Route f : filters) {
      if ("auth".equals(f.entry().phase())) {
        return true;
      }
    }
    return false;
  }

  /**
   * @return whether the table routes anything
   */
  boolean routesAnything() {
    return !filters.isEmpty() || !handlers.isEmpty() || !multiple.isEmpty();
  }

  /**
   * @return the system user of an enabled module whose descriptor asks for one ({@link
   *     ModuleDescriptor#systemUser}), else empty
   */
  public Optional<String> systemUser(String moduleId) {
    return Optional.ofNullable(moduleId == null ? null : systemUsers.get(moduleId));
  }

  /**
   * @param method HTTP method, upper case
   * @param path request path without query string
   * @param moduleId the request's {@code X-Okapi-Module-Id}, or null
   * @return the pipeline, or empty if no handler serves the request
   * @throws io.okapigw.core.http.HttpError 500 if a redirect loops or leads nowhere; 503 if the
   *     table is {@link #unavailable}
   */
  public Optional<Pipeline> match(String method, String path, String moduleId) {
    if (unavailable != null && !servedAnyway(method, path, moduleId)) {
      throw HttpError.unavailable(unavailable);
    }
    Route handler = handler(method, path, moduleId);
    List<Route> matched = filters(method, path);
    // plain loops, no streams or Optional chains: this runs for every proxied request
    if ((handler == null || !handler.entry().isRedirect()) && !anyRedirect(matched)) {
      return handler == null
          ? Optional.empty()
          : Optional.of(pipeline(matched, handler, List.of(), path, moduleId != null));
    }
    return new Redirects(this, method)
        .resolve(path, handler, matched)
        .map(r -> pipeline(r.filters(), r.handler(), r.redirects(), r.path(), moduleId != null));
  }

  /**
   * Of an unavailable table: whether the request is for a public handler of the built-in module.
   */
  private boolean servedAnyway(String method, String path, String moduleId) {
    Route handler = moduleId == null ? handlers.find(method, path) : null;
    return handler != null
        && handler.moduleId().equals(servedAnyway)
        && handler.entry().permissionsRequired().isEmpty();
  }

  private Route handler(String method, String path, String moduleId) {
    if (moduleId == null) {
      return handlers.find(method, path);
    }
    HandlerIndex scoped = multiple.get(moduleId);
    return scoped == null ? null : scoped.find(method, path);
  }

  private static boolean anyRedirect(List<Route> routes) {
    for (Route r : routes) {
      if (r.entry().isRedirect()) {
        return true;
      }
    }
    return false;
  }

  /**
   * @return the module providing the tenant's auth filter, if it has one enabled
   */
  public Optional<String> authModule() {
    return filters.stream()
        .filter(f -> "auth".equals(f.entry().phase()))
        .findFirst()
        .map(Route::moduleId);
  }

  /**
   * @return who decides on the tenant's requests
   */
  public AuthKind auth() {
    return auth;
  }

  /**
   * @return the tenant this table routes for
   */
  public String tenant() {
    return tenant;
  }

  /**
   * @return the plain (non-multiple) handler serving the request, or null
   */
  Route handler(String method, String path) {
    return handlers.find(method, path);
  }

  /**
   * @return the filters of every phase matching the request, in enable order
   */
  List<Route> filters(String method, String path) {
    List<Route> matched = new ArrayList<>(2);
    for (Route f : filters) {
      if (f.matches(method, path)) {
        matched.add(f);
      }
    }
    return matched;
  }

  private Pipeline pipeline(
      List<Route> matched,
      Route handler,
      List<Route> redirects,
      String handlerPath,
      boolean moduleScoped) {
    Stage auth = null;
    List<Stage> pre = new ArrayList<>(0);
    List<Stage> post = new ArrayList<>(0);
    for (Route f : matched) {
      RoutingEntry entry = f.entry();
      if (entry.isRedirect()) {
        continue;
      }
      switch (entry.phase()) {
        case "auth" -> auth = auth == null ? stage(f) : auth;
        case "pre" -> pre.add(stage(f));
        default -> post.add(stage(f));
      }
    }
    return new Pipeline(
        Optional.ofNullable(auth),
        pre,
        stage(handler),
        post,
        stages(redirects),
        handlerPath,
        moduleScoped,
        systemPermissionSets,
        handler.isOwnTenantPath(handlerPath));
  }

  private List<Stage> stages(List<Route> routes) {
    if (routes.isEmpty()) {
      return List.of();
    }
    List<Stage> stages = new ArrayList<>(routes.size());
    for (Route r : routes) {
      stages.add(stage(r));
    }
    return List.copyOf(stages);
  }

  private Stage stage(Route route) {
    Instances running = instances.get(route.moduleId());
    return new Stage(
        route.moduleId(),
        route.entry(),
        running != null ? running : new Instances(route.moduleId(), List.of()));
  }
}
