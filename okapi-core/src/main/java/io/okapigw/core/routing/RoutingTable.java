package io.okapigw.core.routing;

import io.okapigw.core.registry.InterfaceDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One tenant's routes, compiled from its enabled modules. Immutable; replaced as a whole when the
 * registry changes. Handlers are indexed by their literal first path segment so a lookup scans
 * only the handlers that can match.
 */
public final class RoutingTable {

  private final Map<String, List<Route>> handlersBySegment;
  private final List<Route> handlersAnySegment;
  private final List<Route> filters;
  private final Map<String, Instances> instances;

  private RoutingTable(Map<String, List<Route>> handlersBySegment, List<Route> handlersAnySegment,
      List<Route> filters, Map<String, Instances> instances) {
    this.handlersBySegment = handlersBySegment;
    this.handlersAnySegment = handlersAnySegment;
    this.filters = filters;
    this.instances = instances;
  }

  /**
   * Compiles a tenant's table.
   *
   * @param enabled the tenant's modules in enable order
   * @param instances module id to its instances
   */
  static RoutingTable compile(List<ModuleDescriptor> enabled, Map<String, Instances> instances) {
    Map<String, List<Route>> bySegment = new HashMap<>();
    List<Route> anySegment = new ArrayList<>();
    List<Route> filters = new ArrayList<>();
    for (ModuleDescriptor module : enabled) {
      for (InterfaceDescriptor itf : module.provides()) {
        if (!itf.isSystem()) {
          itf.handlers().forEach(h -> add(Route.of(module.id(), h), bySegment, anySegment));
        }
      }
      module.filters().forEach(f -> filters.add(Route.of(module.id(), f)));
    }
    Comparator<Route> specificFirst = Route::compareSpecificity;
    bySegment.values().forEach(list -> list.sort(specificFirst));
    anySegment.sort(specificFirst);
    return new RoutingTable(bySegment, anySegment, List.copyOf(filters), instances);
  }

  private static void add(Route route, Map<String, List<Route>> bySegment, List<Route> any) {
    String segment = route.pattern().firstSegment();
    if (segment == null) {
      any.add(route);
    } else {
      bySegment.computeIfAbsent(segment, s -> new ArrayList<>()).add(route);
    }
  }

  /**
   * @param method HTTP method, upper case
   * @param path request path without query string
   * @return the pipeline, or empty if no handler serves the request
   */
  public Optional<Pipeline> match(String method, String path) {
    Route handler = mostSpecific(
        first(handlersBySegment.getOrDefault(firstSegment(path), List.of()), method, path),
        first(handlersAnySegment, method, path));
    if (handler == null) {
      return Optional.empty();
    }
    Optional<Stage> auth = filters(method, path, "auth").stream().findFirst();
    return Optional.of(new Pipeline(auth, filters(method, path, "pre"), stage(handler),
        filters(method, path, "post")));
  }

  private List<Stage> filters(String method, String path, String phase) {
    List<Stage> stages = new ArrayList<>(1);
    for (Route f : filters) {
      if (phase.equals(f.entry().phase()) && f.matches(method, path)) {
        stages.add(stage(f));
      }
    }
    return stages;
  }

  private Stage stage(Route route) {
    return new Stage(route.moduleId(), route.entry(),
        instances.getOrDefault(route.moduleId(), new Instances(route.moduleId(), List.of())));
  }

  private static Route first(List<Route> routes, String method, String path) {
    for (Route r : routes) {
      if (r.matches(method, path)) {
        return r;
      }
    }
    return null;
  }

  private static Route mostSpecific(Route a, Route b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return a.compareSpecificity(b) <= 0 ? a : b;
  }

  private static String firstSegment(String path) {
    int end = path.indexOf('/', 1);
    return end < 0 ? path.substring(1) : path.substring(1, end);
  }
}
