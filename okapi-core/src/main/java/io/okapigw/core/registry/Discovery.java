package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where modules run ({@code /_/discovery/modules}), with Okapi's rules: an instance may be posted
 * before its module is registered (deployment tools post instances and descriptors in either order)
 * and stays when its module is removed; instance ids are unique across services.
 */
public final class Discovery {

  private final RegistryStore store;
  private final Mutations mutations;
  private final TenantModules tenantModules;

  Discovery(RegistryStore store, Mutations mutations, TenantModules tenantModules) {
    this.store = store;
    this.mutations = mutations;
    this.tenantModules = tenantModules;
  }

  /**
   * Adds an instance, whether its module is registered or not: it serves once the module is
   * registered and enabled.
   *
   * @return the instance as stored; 400 if invalid, or if its {@code instId} is taken, by this
   *     service or another
   */
  public Future<DeploymentDescriptor> add(JsonObject json) {
    return add(DeploymentDescriptor.fromJson(json));
  }

  /**
   * Adds an instance as given: one a gateway node started ({@link DeploymentDescriptor#deployed}).
   *
   * @return the instance as stored; 400 if its {@code instId} is taken
   */
  public Future<DeploymentDescriptor> add(DeploymentDescriptor deployment) {
    return mutations.run(
        () ->
            store
                .deployments()
                .compose(
                    all -> {
                      all.stream()
                          .filter(d -> d.instId().equals(deployment.instId()))
                          .findFirst()
                          .ifPresent(taken -> duplicate(deployment, taken));
                      return store.insertDeployment(deployment);
                    })
                .map(
                    inserted -> {
                      if (!inserted) { // posted meanwhile, on another node
                        duplicate(deployment, deployment);
                      }
                      return deployment;
                    }),
        d -> ChangeScope.modules(List.of(d.srvcId())),
        d -> tenantsAuthorizedBy(d.srvcId()));
  }

  /**
   * Replaces an instance with another of the same {@code srvcId} and {@code instId} (a deployed one
   * started again at another URL, or Okapi's {@code PUT /_/discovery/modules/{srvcId}/{instId}}).
   *
   * @return the instance as stored; 404 if there is no such instance
   */
  public Future<DeploymentDescriptor> replace(DeploymentDescriptor deployment) {
    return mutations.run(
        () ->
            store
                .replaceDeployment(deployment)
                .map(
                    replaced -> {
                      if (!replaced) {
                        throw HttpError.notFound(
                            "no deployment " + deployment.srvcId() + "/" + deployment.instId());
                      }
                      return deployment;
                    }),
        d -> ChangeScope.modules(List.of(d.srvcId())),
        d -> tenantsAuthorizedBy(d.srvcId()));
  }

  private static void duplicate(DeploymentDescriptor added, DeploymentDescriptor taken) {
    throw HttpError.badRequest(
        "Duplicate instId "
            + added.instId()
            + ": already an instance of "
            + taken.srvcId()
            + " (instance ids are unique across services)");
  }

  /**
   * @return instances, all or of one module ({@code srvcId} non-null; 404 if it has none)
   */
  public Future<List<DeploymentDescriptor>> instances(String srvcId) {
    return store
        .deployments()
        .map(
            all ->
                srvcId == null
                    ? all
                    : nonEmpty(
                        all.stream().filter(d -> d.srvcId().equals(srvcId)).toList(), srvcId));
  }

  /**
   * @return the instance; 404 if none
   */
  public Future<DeploymentDescriptor> instance(String srvcId, String instId) {
    return instances(srvcId)
        .map(
            list ->
                list.stream()
                    .filter(d -> d.instId().equals(instId))
                    .findFirst()
                    .orElseThrow(
                        () -> HttpError.notFound("no deployment " + srvcId + "/" + instId)));
  }

  /** Removes one instance, or all of a module's; 404 if none matched. */
  public Future<Void> remove(String srvcId, String instId) {
    return mutations.run(
        () ->
            store
                .deleteDeployments(srvcId, instId)
                .map(
                    count -> {
                      if (count == 0) {
                        throw HttpError.notFound(
                            "no deployment " + srvcId + (instId == null ? "" : "/" + instId));
                      }
                      return (Void) null;
                    }),
        v -> ChangeScope.modules(List.of(srvcId)),
        v -> tenantsAuthorizedBy(srvcId));
  }

  /** Removes every instance of every service (as Okapi, 204 even when there is none). */
  public Future<Void> removeAll() {
    return mutations
        .<Set<String>>run(
            () ->
                store
                    .deployments()
                    .compose(
                        all -> {
                          Set<String> services = new TreeSet<>();
                          all.forEach(d -> services.add(d.srvcId()));
                          return Future.all(
                                  services.stream()
                                      .map(s -> store.deleteDeployments(s, null))
                                      .toList())
                              .map(done -> services);
                        }),
            ChangeScope::modules,
            services ->
                Future.all(services.stream().map(this::tenantsAuthorizedBy).toList())
                    .map(
                        sets -> {
                          Set<String> tenants = new TreeSet<>();
                          sets.<Set<String>>list().forEach(tenants::addAll);
                          return tenants;
                        }))
        .mapEmpty();
  }

  /**
   * @return the tenants whose auth filter the module provides: when its instances change, the
   *     grants cached from the old ones must not outlive them
   */
  private Future<Set<String>> tenantsAuthorizedBy(String moduleId) {
    return store
        .module(moduleId)
        .compose(
            m ->
                m.isPresent() && m.get().authFilter().isPresent()
                    ? tenantModules.tenantsUsing(moduleId).map(Set::copyOf)
                    : Future.succeededFuture(Set.of()));
  }

  private static List<DeploymentDescriptor> nonEmpty(List<DeploymentDescriptor> list, String id) {
    if (list.isEmpty()) {
      throw HttpError.notFound("no deployment of module " + id);
    }
    return list;
  }
}
