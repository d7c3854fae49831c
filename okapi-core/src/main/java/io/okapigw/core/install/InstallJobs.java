package io.okapigw.core.install;

import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.RegistryStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Comparator;
import java.util.List;

/**
 * The install jobs of {@code /_/proxy/tenants/{t}/install[/{id}]}, as Okapi 6.1.5 keeps them: every
 * install and upgrade that is not simulated, synchronous or not, until deleted. They live in the
 * registry store, so any node reports any job; a job whose node is gone (left the cluster, or
 * restarted) is reported, and stored, as failed and complete (see {@link InstallJob}).
 */
public final class InstallJobs {

  private final Registry registry;
  private final RegistryStore store;
  private final ClusterBus bus;
  private final String run;

  InstallJobs(Registry registry, RegistryStore store, ClusterBus bus, String run) {
    this.registry = registry;
    this.store = store;
    this.bus = bus;
    this.run = run;
  }

  Future<Void> add(String tenant, InstallJob job) {
    return store.putInstallJob(tenant, job.id(), job.toStored());
  }

  /**
   * Completes a job that failed before it ran (its tenant's modules changed meanwhile, the tenant
   * lock was not free): the first module to change gets the failure's message.
   *
   * @return failed with {@code failure}
   */
  Future<Void> failIfPending(String tenant, InstallJob job, Throwable failure) {
    if (job.complete()) {
      return Future.failedFuture(failure);
    }
    job.modules().stream()
        .filter(PlanEntry::changes)
        .findFirst()
        .ifPresent(m -> m.message(failure.getMessage()));
    job.finish();
    return add(tenant, job).transform(x -> Future.failedFuture(failure));
  }

  /**
   * @return the tenant's jobs, oldest first; 404 unknown tenant
   */
  public Future<List<JsonObject>> list(String tenant) {
    return registry
        .tenant(tenant)
        .compose(t -> store.installJobs(tenant))
        .compose(stored -> Future.all(stored.stream().map(json -> reported(tenant, json)).toList()))
        .map(
            all ->
                all.<InstallJob>list().stream()
                    .map(InstallJob::toJson)
                    .sorted(
                        Comparator.comparing((JsonObject j) -> j.getString("startDate", ""))
                            .thenComparing(j -> j.getString("id")))
                    .toList());
  }

  /**
   * @return the job; 404 unknown tenant or job
   */
  public Future<JsonObject> get(String tenant, String jobId) {
    return find(tenant, jobId).map(InstallJob::toJson);
  }

  /** Removes a complete job; 404 unknown, 400 not complete (as Okapi). */
  public Future<Void> delete(String tenant, String jobId) {
    return find(tenant, jobId)
        .compose(
            job -> {
              if (!job.complete()) {
                throw HttpError.badRequest("Cannot delete non-completed job " + jobId);
              }
              return store.deleteInstallJob(tenant, jobId).mapEmpty();
            });
  }

  /** Removes the tenant's complete jobs; running ones stay (as Okapi). */
  public Future<Void> deleteComplete(String tenant) {
    return list(tenant)
        .compose(
            jobs ->
                Future.all(
                    jobs.stream()
                        .filter(j -> j.getBoolean("complete", false))
                        .map(j -> store.deleteInstallJob(tenant, j.getString("id")))
                        .toList()))
        .mapEmpty();
  }

  private Future<InstallJob> find(String tenant, String jobId) {
    return registry
        .tenant(tenant)
        .compose(t -> store.installJob(tenant, jobId))
        .compose(
            json ->
                json.isPresent()
                    ? reported(tenant, json.get())
                    : Future.failedFuture(
                        HttpError.notFound(
                            "install job " + jobId + " not found for tenant " + tenant)));
  }

  private Future<InstallJob> reported(String tenant, JsonObject stored) {
    InstallJob job = InstallJob.fromStored(stored);
    if (!job.orphaned(bus.members(), bus.nodeId(), run)) {
      return Future.succeededFuture(job);
    }
    job.failOrphaned();
    return add(tenant, job).map(job);
  }
}
