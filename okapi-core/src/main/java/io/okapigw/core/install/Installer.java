package io.okapigw.core.install;

import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.LogText;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.okapigw.core.registry.TenantModules;
import io.okapigw.core.tenantinit.TenantInit;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes the modules enabled for tenants as Okapi 6.1.5 does: one module (enable, upgrade,
 * disable), every module (disable all), or a plan ({@code install}, {@code upgrade}) resolved with
 * Okapi's dependency rules and run as a job that is stored (see {@link InstallJobs}). Each change
 * tells the modules first ({@link TenantInit}) and is recorded only when they succeeded, so a
 * failed {@code _tenant} call leaves the module as it was. One tenant's changes run one at a time
 * across the cluster ({@link TenantLock}).
 */
public final class Installer {

  private static final Logger log = LoggerFactory.getLogger(Installer.class);

  private final Vertx vertx;
  private final Registry registry;
  private final TenantModules modules;
  private final TenantLock lock;
  private final ModuleChanges changes;
  private final PlanRunner runner;
  private final InstallJobs jobs;
  private final ClusterBus bus;
  private final String run = UUID.randomUUID().toString();

  /**
   * @param store where install jobs are kept (so every node reports them)
   * @param init the calls that tell modules of a change
   * @param bus this node's id and the cluster's members (to tell a job whose node is gone)
   * @param lockWaitMillis how long a change waits for the tenant's running one to end
   * @param deployment what {@code deploy=true} deploys and undeploys with
   */
  public Installer(
      Vertx vertx,
      Registry registry,
      RegistryStore store,
      TenantInit init,
      ClusterBus bus,
      long lockWaitMillis,
      AutoDeploy deployment) {
    this.vertx = vertx;
    this.registry = registry;
    this.modules = registry.tenantModules();
    this.lock = new TenantLock(vertx, lockWaitMillis);
    this.changes = new ModuleChanges(modules, init);
    this.runner = new PlanRunner(changes, store, deployment);
    this.bus = bus;
    this.jobs = new InstallJobs(registry, store, bus, run);
  }

  /**
   * @return the install jobs of the tenants
   */
  public InstallJobs jobs() {
    return jobs;
  }

  /**
   * Enables one module ({@code POST /_/proxy/tenants/{t}/modules}).
   *
   * @param id the module, or its product alone for the newest registered version
   * @return the id of the module enabled; 404 unknown tenant or module, 400 when the change breaks
   *     a dependency (unless {@code depCheck=false}) or a module call fails
   */
  public Future<String> enable(String tenant, String id, InstallOptions options) {
    return lock.run(
        tenant,
        () ->
            latest(id)
                .compose(
                    to -> changes.run(tenant, null, to, options, options.depCheck()).map(to.id())));
  }

  /**
   * Upgrades (or downgrades) one module ({@code POST /_/proxy/tenants/{t}/modules/{from}} with
   * {@code {"id": to}}).
   *
   * @return the id of the module enabled now
   */
  public Future<String> upgrade(String tenant, String fromId, String toId, InstallOptions options) {
    return lock.run(
        tenant,
        () ->
            registry
                .module(fromId)
                .compose(
                    from ->
                        latest(toId)
                            .compose(
                                to ->
                                    changes
                                        .run(tenant, from, to, options, options.depCheck())
                                        .map(to.id()))));
  }

  /** Disables one module ({@code DELETE /_/proxy/tenants/{t}/modules/{id}}). */
  public Future<Void> disable(String tenant, String id, InstallOptions options) {
    return lock.run(
        tenant,
        () ->
            registry
                .module(id)
                .compose(from -> changes.run(tenant, from, null, options, options.depCheck())));
  }

  /**
   * Disables every module of the tenant, without dependency checks, newest enabled first ({@code
   * DELETE /_/proxy/tenants/{t}/modules}); the supertenant keeps the okapi module.
   */
  public Future<Void> disableAll(String tenant, InstallOptions options) {
    return lock.run(
        tenant,
        () ->
            modules
                .enabled(tenant)
                .compose(
                    enabled -> {
                      List<ModuleDescriptor> reversed = new ArrayList<>(enabled);
                      Collections.reverse(reversed);
                      Future<Void> chain = Future.succeededFuture();
                      for (ModuleDescriptor m : reversed) {
                        if (!(TenantDescriptor.SUPERTENANT.equals(tenant)
                            && TenantModules.isOkapiModule(m.id()))) {
                          chain = chain.compose(v -> changes.run(tenant, m, null, options, false));
                        }
                      }
                      return chain;
                    }));
  }

  /**
   * Installs ({@code POST /_/proxy/tenants/{t}/install}): resolves the request into a plan and,
   * unless simulated, runs it as a job.
   *
   * @param request Okapi's array of {@code {"id", "action"}}
   * @return the plan (simulate), the plan and the job started (async) or the plan run
   */
  public Future<InstallAnswer> install(String tenant, JsonArray request, InstallOptions options) {
    PlanEntry.listFromJson(request); // 400 for a bad request before anything else
    return start(tenant, request, options);
  }

  /**
   * Upgrades every enabled module that has a newer registered version ({@code POST
   * /_/proxy/tenants/{t}/upgrade}), as an install.
   */
  public Future<InstallAnswer> upgradeAll(String tenant, InstallOptions options) {
    return start(tenant, null, options);
  }

  private Future<InstallAnswer> start(String tenant, JsonArray request, InstallOptions options) {
    return plan(tenant, request, options)
        .compose(
            plan -> {
              JsonArray answer = PlanEntry.toJson(plan.entries(), false);
              if (options.simulate()) {
                return Future.succeededFuture(new InstallAnswer(answer, null));
              }
              InstallJob job =
                  new InstallJob(UUID.randomUUID().toString(), plan.entries(), bus.nodeId(), run);
              Future<Void> stored = jobs.add(tenant, job);
              Future<Void> done =
                  stored
                      .compose(
                          v ->
                              lock.run(
                                  tenant,
                                  () ->
                                      current(plan, request, options)
                                          .compose(
                                              p ->
                                                  runner.run(
                                                      tenant,
                                                      job,
                                                      p.available(),
                                                      p.enabled(),
                                                      options))))
                      .recover(e -> jobs.failIfPending(tenant, job, e));
              if (options.async()) {
                done.onFailure(
                    e ->
                        log.warn(
                            "tenant {}: install job {} failed: {}",
                            tenant,
                            job.id(),
                            LogText.message(e)));
                // the Location answered must already be readable, on any node
                return stored.map(v -> new InstallAnswer(answer, job.id()));
              }
              return done.map(v -> new InstallAnswer(PlanEntry.toJson(job.modules(), false), null));
            });
  }

  private Future<Plan> plan(String tenant, JsonArray request, InstallOptions options) {
    return Plan.make(
        vertx, registry, tenant, request == null ? null : PlanEntry.listFromJson(request), options);
  }

  /**
   * The plan to run once the tenant's lock is held: as made if the tenant's modules did not change
   * while the job waited for the lock, else made again, and run only if it is the same.
   */
  private Future<Plan> current(Plan plan, JsonArray request, InstallOptions options) {
    return plan.stillCurrent(modules)
        .map(plan)
        .recover(
            changed ->
                plan(plan.tenant(), request, options)
                    .compose(
                        again ->
                            PlanEntry.toJson(again.entries(), false)
                                    .equals(PlanEntry.toJson(plan.entries(), false))
                                ? Future.succeededFuture(
                                    new Plan(
                                        plan.tenant(),
                                        plan.entries(),
                                        again.available(),
                                        again.enabled()))
                                : Future.failedFuture(changed)));
  }

  private Future<ModuleDescriptor> latest(String id) {
    if (id == null || id.isBlank()) {
      return Future.failedFuture(HttpError.badRequest("enable: missing id of the module"));
    }
    if (ModuleIds.parse(id).hasVersion()) {
      return registry.module(id);
    }
    return registry
        .modules()
        .compose(
            all -> {
              String newest =
                  ModuleIds.newestOf(id, all.stream().map(ModuleDescriptor::id).toList());
              return registry.module(newest);
            });
  }

  /**
   * What an install or upgrade answers.
   *
   * @param modules the plan, in Okapi's shape without stages; after a synchronous run, with the
   *     message of a module that failed
   * @param jobId the job running in the background (async), else null
   */
  public record InstallAnswer(JsonArray modules, String jobId) {}
}
