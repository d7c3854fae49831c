package io.okapigw.core.admin;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.InterfaceVersion;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.ModuleId;
import io.okapigw.core.registry.VersionFilter;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The query of {@code GET /_/proxy/modules} and {@code GET /_/proxy/tenants/{t}/modules}, with
 * Okapi 6.1.5's semantics (its {@code ModuleUtil.filter}): {@code filter} (a product, or a product
 * and version prefix), {@code provide} and {@code require} ({@code id} or {@code id=version},
 * comma-separated; an {@code optional} interface counts as required), {@code scope}, {@code
 * preRelease}, {@code npmSnapshot}, {@code latest} (the newest N of each product), {@code
 * orderBy=id} with {@code order} ({@code desc} unless {@code asc}; ascending without {@code
 * orderBy}), {@code full} (whole descriptors; else id, tags and, in the list of all modules, name)
 * and {@code dot} (the modules and their dependencies as a Graphviz graph, {@link ModuleGraph}).
 * Where Okapi answers 500 to a bad value on the tenant's list, this answers 400 naming it.
 */
final class ModuleListQuery {

  private final Optional<ModuleId> filter;
  private final Optional<List<Wanted>> provide;
  private final Optional<List<Wanted>> require;
  private final String scope;
  private final VersionFilter versions;
  private final Integer latest;
  private final boolean descending;
  private final boolean full;
  private final boolean dot;
  private final boolean withName;

  private ModuleListQuery(MultiMap params, boolean withName) {
    filter = Optional.ofNullable(params.get("filter")).map(ModuleListQuery::moduleId);
    provide = Optional.ofNullable(params.get("provide")).map(s -> wanted("provide", s));
    require = Optional.ofNullable(params.get("require")).map(s -> wanted("require", s));
    scope = params.get("scope");
    versions = VersionFilter.of(params.get("preRelease"), params.get("npmSnapshot"));
    latest = QueryParams.integer(params, "latest");
    descending = descending(params.get("orderBy"), params.get("order"));
    full = QueryParams.bool(params, "full", false);
    dot = QueryParams.bool(params, "dot", false);
    this.withName = withName;
  }

  /**
   * The query of the list of all modules, whose short view has id, name and tags.
   *
   * @return the query of these parameters
   * @throws HttpError 400 naming a parameter with a bad value
   */
  static ModuleListQuery of(MultiMap params) {
    return new ModuleListQuery(params, true);
  }

  /**
   * The query of a tenant's modules, whose short view has id and tags (no name, as Okapi).
   *
   * @return the query of these parameters
   * @throws HttpError 400 naming a parameter with a bad value
   */
  static ModuleListQuery forTenant(MultiMap params) {
    return new ModuleListQuery(params, false);
  }

  /**
   * Answers the list: a JSON array in the query's order and view, or with {@code dot=true} the
   * graph as {@code text/plain}; the work runs off the event loop.
   */
  void reply(RoutingContext ctx, Future<List<ModuleDescriptor>> modules) {
    if (!dot) {
      Replies.okList(ctx, modules.compose(all -> Replies.offLoop(ctx, () -> apply(all))));
      return;
    }
    modules
        .compose(all -> Replies.offLoop(ctx, () -> ModuleGraph.dot(select(all))))
        .onSuccess(text -> ctx.response().putHeader("Content-Type", "text/plain").end(text))
        .onFailure(ctx::fail);
  }

  /**
   * @return the modules the query selects, in its order and view
   */
  List<JsonObject> apply(List<ModuleDescriptor> modules) {
    return select(modules).stream().map(this::view).toList();
  }

  private JsonObject view(ModuleDescriptor module) {
    if (full) {
      return module.toJson();
    }
    JsonObject summary = module.toSummaryJson();
    if (!withName) {
      summary.remove("name");
    }
    return summary;
  }

  private List<ModuleDescriptor> select(List<ModuleDescriptor> modules) {
    List<ModuleDescriptor> selected =
        new ArrayList<>(modules.stream().filter(this::selects).toList());
    Comparator<ModuleDescriptor> ascending = Comparator.comparing(ModuleDescriptor::moduleId);
    if (latest != null) {
      selected = newest(selected, latest);
    }
    selected.sort(descending ? ascending.reversed() : ascending);
    return selected;
  }

  private boolean selects(ModuleDescriptor module) {
    ModuleId id = module.moduleId();
    return filter.map(id::matches).orElse(true)
        && versions.matches(id)
        && provide.map(w -> anyProvided(module, w)).orElse(true)
        && require.map(w -> anyRequired(module, w)).orElse(true);
  }

  private boolean anyProvided(ModuleDescriptor module, List<Wanted> wanted) {
    return module.provides().stream()
        .filter(i -> scope == null || i.scope().contains(scope))
        .anyMatch(i -> wanted.stream().anyMatch(w -> w.matches(i.id(), i.version())));
  }

  private boolean anyRequired(ModuleDescriptor module, List<Wanted> wanted) {
    return Stream.concat(module.requires().stream(), module.optional().stream())
        .filter(r -> scope == null || r.scope().contains(scope))
        .anyMatch(r -> wanted.stream().anyMatch(w -> w.matches(r.id(), r.version())));
  }

  /** Okapi's {@code latest}: the newest {@code limit} of each product, at least one. */
  private static List<ModuleDescriptor> newest(List<ModuleDescriptor> modules, int limit) {
    List<ModuleDescriptor> sorted = new ArrayList<>(modules);
    sorted.sort(Comparator.comparing(ModuleDescriptor::moduleId).reversed());
    List<ModuleDescriptor> kept = new ArrayList<>();
    String product = null;
    int count = 0;
    for (ModuleDescriptor module : sorted) {
      String next = module.moduleId().product();
      count = next.equals(product) ? count + 1 : 0;
      product = next;
      if (count == 0 || count < limit) {
        kept.add(module);
      }
    }
    return kept;
  }

  private static boolean descending(String orderBy, String order) {
    if (orderBy == null) {
      return false;
    }
    if (!"id".equals(orderBy)) {
      throw HttpError.badRequest("unknown orderBy field: " + orderBy + " (only id)");
    }
    if (order != null && !"desc".equals(order) && !"asc".equals(order)) {
      throw HttpError.badRequest("invalid order value: " + order + " (asc or desc)");
    }
    return !"asc".equals(order);
  }

  private static ModuleId moduleId(String filter) {
    try {
      return ModuleId.parse(filter);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest(
          "parameter filter: '"
              + filter
              + "' is not a product nor a"
              + " module id ("
              + e.getMessage()
              + ")");
    }
  }

  private static List<Wanted> wanted(String name, String value) {
    List<Wanted> wanted = new ArrayList<>();
    for (String item : value.split(",")) {
      String[] pair = item.split("=");
      if (pair.length != 2) {
        wanted.add(new Wanted(pair.length == 1 ? pair[0] : item, Optional.empty()));
        continue;
      }
      Optional<InterfaceVersion> version = InterfaceVersion.parse(pair[1]);
      if (version.isEmpty()) {
        throw HttpError.badRequest(
            "parameter "
                + name
                + ": bad interface version '"
                + pair[1]
                + "' in "
                + item
                + " (major.minor or major.minor.patch)");
      }
      wanted.add(new Wanted(pair[0], version));
    }
    return wanted;
  }

  /**
   * One item of {@code provide} or {@code require}: an interface id, and optionally the exact
   * version (as Okapi: equal to the listed version with the same major version).
   */
  private record Wanted(String id, Optional<InterfaceVersion> version) {

    boolean matches(String interfaceId, String versions) {
      if (!id.equals(interfaceId)) {
        return false;
      }
      return version
          .map(
              want ->
                  InterfaceVersion.parseAll(versions).stream()
                      .filter(v -> v.major() == want.major())
                      .findFirst()
                      .map(want::equals)
                      .orElse(false))
          .orElse(true);
    }
  }
}
