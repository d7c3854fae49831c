package io.okapigw.core.admin;

import static io.okapigw.core.admin.Replies.guarded;

import io.okapigw.core.registry.InterfaceDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.TenantModules;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code /_/proxy/tenants/{t}/interfaces[/{interfaceId}]}: the interfaces a tenant's enabled
 * modules provide, and which modules provide one, as Okapi 6.1.5 lists them (modules in id order;
 * {@code ?type=} an interface type, {@code system} for ids starting with {@code _}; {@code
 * ?full=true} every interface as its module describes it, else each id once with its version). 404
 * for an unknown tenant.
 */
final class TenantInterfacesApi {

  private static final String BASE = "/_/proxy/tenants/:tid/interfaces";

  private final TenantModules modules;

  TenantInterfacesApi(TenantModules modules) {
    this.modules = modules;
  }

  void mount(Router router) {
    router.get(BASE).handler(guarded(this::list));
    router
        .get(BASE + "/:iid")
        .handler(
            ctx ->
                Replies.okList(
                    ctx,
                    provided(ctx)
                        .map(
                            all ->
                                all.filter(p -> p.itf().id().equals(ctx.pathParam("iid")))
                                    .map(p -> p.module().id())
                                    .distinct()
                                    .map(id -> new JsonObject().put("id", id))
                                    .toList())));
  }

  private void list(RoutingContext ctx) {
    boolean full = QueryParams.bool(ctx.request().params(), "full", false);
    Set<String> seen = new HashSet<>();
    Replies.okList(
        ctx,
        provided(ctx)
            .map(
                all ->
                    all.map(Provided::itf)
                        .filter(itf -> full || seen.add(itf.id()))
                        .map(
                            itf ->
                                full
                                    ? itf.json()
                                    : new JsonObject()
                                        .put("id", itf.id())
                                        .put("version", itf.version()))
                        .toList()));
  }

  /**
   * @return every interface the tenant's modules provide, of the {@code type} asked for
   */
  private Future<Stream<Provided>> provided(RoutingContext ctx) {
    String type = ctx.request().getParam("type");
    return modules
        .enabled(ctx.pathParam("tid"))
        .map(
            enabled ->
                sorted(enabled).stream()
                    .flatMap(m -> m.provides().stream().map(itf -> new Provided(m, itf)))
                    .filter(p -> type == null || p.itf().isType(type)));
  }

  private static List<ModuleDescriptor> sorted(List<ModuleDescriptor> enabled) {
    return enabled.stream().sorted(Comparator.comparing(ModuleDescriptor::id)).toList();
  }

  private record Provided(ModuleDescriptor module, InterfaceDescriptor itf) {}
}
