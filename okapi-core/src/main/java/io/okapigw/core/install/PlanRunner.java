package io.okapigw.core.install;

import io.okapigw.core.http.LogText;
import io.okapigw.core.install.PlanEntry.Action;
import io.okapigw.core.install.PlanEntry.Stage;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a job's plan as Okapi 6.1.5 does, one module at a time in plan order: every entry {@code
 * pending}, then each change {@code invoke} and, once its modules were told and the change
 * recorded, {@code done}. The job is stored after every step, so any node reports its progress. The
 * first failure stops the job (its message on the module's entry, the modules after it left pending
 * and unchanged) unless {@code ignoreErrors}: then the failed module stays as it was, the job goes
 * on, and a later module whose dependencies the failure left unmet is not run (its message says so)
 * instead of failing. Once every change ran, a permissions module the plan upgraded gets every
 * enabled module's permissions again, as Okapi does. With {@code deploy=true}, as in Okapi, every
 * module the plan enables or keeps is deployed first (stage {@code deploy}; a module that cannot be
 * started fails the job before any module is told), and every module it disables or replaces is
 * undeployed last if no tenant uses it (stage {@code undeploy}; a failure is logged).
 */
final class PlanRunner {

  private static final Logger log = LoggerFactory.getLogger(PlanRunner.class);

  private final ModuleChanges changes;
  private final RegistryStore store;
  private final AutoDeploy deployment;

  PlanRunner(ModuleChanges changes, RegistryStore store, AutoDeploy deployment) {
    this.changes = changes;
    this.store = store;
    this.deployment = deployment;
  }

  /**
   * @param available the modules the plan was made from, by id
   * @param enabled the tenant's modules when the plan was made
   * @return done when every module is done; failed with the first failure (the job is complete and
   *     stored either way)
   */
  Future<Void> run(
      String tenant,
      InstallJob job,
      Map<String, PlanModule> available,
      List<ModuleDescriptor> enabled,
      InstallOptions options) {
    job.modules().forEach(m -> m.stage(Stage.PENDING));
    List<PlanModule> current = new ArrayList<>(enabled.stream().map(PlanModule::of).toList());
    Future<Void> chain = save(tenant, job);
    if (options.deploy()) {
      chain = chain.compose(v -> deploy(tenant, job, available));
    }
    for (PlanEntry entry : job.modules()) {
      if (entry.changes()) {
        chain = chain.compose(v -> step(tenant, job, entry, available, current, options));
      }
    }
    for (PlanEntry entry : job.modules()) {
      if (entry.action() == Action.ENABLE && entry.from() != null) {
        chain =
            chain.compose(
                v ->
                    entry.stage() != Stage.DONE
                        ? Future.succeededFuture()
                        : changes.reloadPermissions(
                            tenant, available.get(entry.id()).descriptor(), options));
      }
    }
    if (options.deploy()) {
      chain = chain.compose(v -> undeploy(tenant, job, available));
    }
    return chain
        .andThen(
            done -> {
              if (done.succeeded()) {
                job.modules().stream()
                    .filter(m -> m.message() == null)
                    .forEach(m -> m.stage(Stage.DONE));
              }
              job.finish();
              log.info(
                  "tenant {}: install job {} {}",
                  tenant,
                  job.id(),
                  done.succeeded() ? "completed" : "failed: " + LogText.message(done.cause()));
            })
        .transform(
            done ->
                save(tenant, job)
                    .transform(
                        saved ->
                            done.succeeded()
                                ? Future.<Void>succeededFuture()
                                : Future.<Void>failedFuture(done.cause())));
  }

  private Future<Void> step(
      String tenant,
      InstallJob job,
      PlanEntry entry,
      Map<String, PlanModule> available,
      List<PlanModule> current,
      InstallOptions options) {
    PlanModule from =
        entry.action() == Action.DISABLE
            ? available.get(entry.id())
            : entry.from() == null ? null : available.get(entry.from());
    PlanModule to = entry.action() == Action.ENABLE ? available.get(entry.id()) : null;
    if (options.ignoreErrors() && !dependenciesMet(from, to, current)) {
      entry.message(
          "not run: the modules it depends on, or that depend on it, were not"
              + " changed as planned (an earlier module failed)");
      return save(tenant, job);
    }
    entry.stage(Stage.INVOKE);
    return save(tenant, job)
        .compose(v -> changes.run(tenant, descriptor(from), descriptor(to), options, false))
        .compose(
            v -> {
              current.remove(from);
              if (to != null) {
                current.add(to);
              }
              entry.stage(Stage.DONE);
              return save(tenant, job);
            },
            e -> {
              entry.message(e.getMessage());
              Future<Void> saved = save(tenant, job);
              if (options.ignoreErrors()) {
                log.warn(
                    "tenant {}: ignoring the failure of {}: {}",
                    tenant,
                    entry.id(),
                    LogText.message(e));
                return saved;
              }
              return saved.transform(x -> Future.failedFuture(e));
            });
  }

  /** Deploys what the plan enables or keeps, at once; the first failure fails the job. */
  private Future<Void> deploy(String tenant, InstallJob job, Map<String, PlanModule> available) {
    List<PlanEntry> deployed =
        job.modules().stream()
            .filter(e -> e.action() == Action.ENABLE || e.action() == Action.UPTODATE)
            .toList();
    deployed.forEach(e -> e.stage(Stage.DEPLOY));
    return save(tenant, job)
        .compose(
            v ->
                Future.all(
                    deployed.stream()
                        .map(
                            e ->
                                deployment
                                    .deploy(available.get(e.id()).descriptor())
                                    .onFailure(x -> e.message(x.getMessage())))
                        .toList()))
        .transform(
            done ->
                save(tenant, job)
                    .compose(
                        v ->
                            done.succeeded()
                                ? Future.<Void>succeededFuture()
                                : Future.<Void>failedFuture(done.cause())));
  }

  /** Undeploys what the plan disabled or replaced, if no tenant uses it; failures are logged. */
  private Future<Void> undeploy(String tenant, InstallJob job, Map<String, PlanModule> available) {
    List<Future<Void>> undeployed = new ArrayList<>();
    for (PlanEntry entry : job.modules()) {
      String gone =
          entry.action() == Action.DISABLE
              ? entry.id()
              : entry.action() == Action.ENABLE ? entry.from() : null;
      PlanModule module = gone == null ? null : available.get(gone);
      if (module != null && entry.stage() == Stage.DONE) {
        entry.stage(Stage.UNDEPLOY);
        undeployed.add(
            deployment
                .undeploy(module.descriptor())
                .recover(
                    e -> {
                      log.warn(
                          "tenant {}: undeploy of {} failed: {}", tenant, gone, LogText.message(e));
                      return Future.succeededFuture();
                    }));
      }
    }
    return undeployed.isEmpty()
        ? Future.succeededFuture()
        : save(tenant, job).compose(v -> Future.all(undeployed)).mapEmpty();
  }

  private static boolean dependenciesMet(PlanModule from, PlanModule to, List<PlanModule> current) {
    List<PlanModule> after = new ArrayList<>(current);
    after.remove(from);
    return to != null ? to.requirementsMetBy(after) : from.unneededBy(after);
  }

  private static ModuleDescriptor descriptor(PlanModule module) {
    return module == null ? null : module.descriptor();
  }

  private Future<Void> save(String tenant, InstallJob job) {
    return store.putInstallJob(tenant, job.id(), job.toStored());
  }
}
