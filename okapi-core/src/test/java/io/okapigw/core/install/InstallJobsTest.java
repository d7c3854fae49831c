package io.okapigw.core.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.core.cluster.ClusterBus;
import io.okapigw.core.install.PlanEntry.Action;
import io.okapigw.core.install.PlanEntry.Stage;
import io.okapigw.core.registry.Registry;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Install jobs whose node is gone are reported failed, not running for ever; one tenant's changes
 * never run at once.
 */
class InstallJobsTest {

  private Vertx vertx;
  private RegistryStore store;
  private Registry registry;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    store = RegistryStore.inMemory();
    registry = new Registry(vertx, store);
    store.insertTenant(TenantDescriptor.fromJson(new JsonObject().put("id", "diku"), null)).await();
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  /** A cluster of the given members, this node being {@code self}. */
  private static ClusterBus cluster(String self, String... others) {
    List<String> members = new ArrayList<>(List.of(others));
    members.add(self);
    return new ClusterBus() {
      @Override
      public String nodeId() {
        return self;
      }

      @Override
      public List<String> members() {
        return members;
      }

      @Override
      public Future<Void> serve(String topic, Function<JsonObject, Future<Void>> handler) {
        return Future.succeededFuture();
      }

      @Override
      public Future<List<String>> broadcast(String topic, JsonObject body) {
        return Future.succeededFuture(List.of());
      }
    };
  }

  /** A job that got to invoking its second module on {@code node}, run {@code run}. */
  private InstallJob runningJob(String node, String run) {
    PlanEntry done = new PlanEntry("mod-a-1.0.0", null, Action.ENABLE);
    done.stage(Stage.DONE);
    PlanEntry invoking = new PlanEntry("mod-b-1.0.0", null, Action.ENABLE);
    invoking.stage(Stage.INVOKE);
    PlanEntry pending = new PlanEntry("mod-c-1.0.0", null, Action.ENABLE);
    pending.stage(Stage.PENDING);
    return new InstallJob("job-1", List.of(done, invoking, pending), node, run);
  }

  @Test
  void jobOfANodeThatLeftTheCluster_reportedAndStoredCompleteWithTheModuleInProgressFailed() {
    InstallJobs jobs = new InstallJobs(registry, store, cluster("node-b"), "run-b");
    jobs.add("diku", runningJob("node-a", "run-a")).await();
    JsonObject job = jobs.get("diku", "job-1").await();
    assertThat(job.getBoolean("complete")).isTrue();
    assertThat(job.getJsonArray("modules").getJsonObject(1).getString("message"))
        .isEqualTo(InstallJob.ORPHANED);
    assertThat(job.getJsonArray("modules").getJsonObject(0).containsKey("message")).isFalse();
    assertThat(store.installJob("diku", "job-1").await().orElseThrow().getBoolean("complete"))
        .isTrue();
    jobs.delete("diku", "job-1").await();
    assertThat(jobs.list("diku").await()).isEmpty();
  }

  @Test
  void jobOfThisNodeBeforeARestart_reportedFailed() {
    new InstallJobs(registry, store, cluster("local"), "run-1")
        .add("diku", runningJob("local", "run-1"))
        .await();
    InstallJobs afterRestart = new InstallJobs(registry, store, cluster("local"), "run-2");
    assertThat(afterRestart.list("diku").await().get(0).getBoolean("complete")).isTrue();
  }

  @Test
  void jobOfALiveNode_reportedRunning() {
    InstallJobs jobs = new InstallJobs(registry, store, cluster("node-b", "node-a"), "run-b");
    jobs.add("diku", runningJob("node-a", "run-a")).await();
    assertThat(jobs.get("diku", "job-1").await().getBoolean("complete")).isFalse();
    assertThatThrownBy(() -> jobs.delete("diku", "job-1").await())
        .hasMessageContaining("Cannot delete non-completed job job-1");
  }

  @Test
  void tenantLock_heldLongerThanTheWait_409NamingTheTenant_thenFreeAgain() {
    TenantLock lock = new TenantLock(vertx, 700);
    Promise<Void> held = Promise.promise();
    Future<Void> first = lock.run("diku", held::future);
    assertThatThrownBy(() -> lock.run("diku", Future::succeededFuture).await())
        .hasMessageContaining("for tenant diku is still running after 700 ms");
    held.complete();
    first.await();
    assertThat(lock.run("diku", () -> Future.succeededFuture("ran")).await()).isEqualTo("ran");
  }

  @Test
  void tenantLock_fiftyConcurrentChanges_neverTwoAtOnce() {
    TenantLock lock = new TenantLock(vertx, 10_000);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<Future<Void>> all = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      all.add(
          lock.run(
              "diku",
              () -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                Promise<Void> held = Promise.promise();
                vertx.setTimer(
                    1,
                    t -> {
                      running.decrementAndGet();
                      held.complete();
                    });
                return held.future();
              }));
    }
    Future.all(all).await();
    assertThat(most.get()).isEqualTo(1);
  }
}
