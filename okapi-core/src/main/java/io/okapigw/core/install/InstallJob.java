package io.okapigw.core.install;

import io.okapigw.core.install.PlanEntry.Stage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * An install or upgrade job in Okapi's {@code InstallJob} shape ({@code id}, {@code complete},
 * {@code startDate}, {@code endDate}, {@code modules}), plus the node running it ({@code node},
 * {@code run}: the node's cluster id and the id of that run of the process), so that any node can
 * tell a job whose node is gone: such a job is reported complete, its module in progress failed
 * ({@link #orphaned}).
 */
final class InstallJob {

  static final String ORPHANED =
      "the gateway node running this job stopped before the job"
          + " completed; modules not marked done were not changed";

  private final String id;
  private final String startDate;
  private final List<PlanEntry> modules;
  private final String node;
  private final String run;
  private boolean complete;
  private String endDate;

  InstallJob(String id, List<PlanEntry> modules, String node, String run) {
    this(id, Instant.now().toString(), modules, node, run);
  }

  private InstallJob(
      String id, String startDate, List<PlanEntry> modules, String node, String run) {
    this.id = id;
    this.startDate = startDate;
    this.modules = modules;
    this.node = node;
    this.run = run;
  }

  String id() {
    return id;
  }

  List<PlanEntry> modules() {
    return modules;
  }

  boolean complete() {
    return complete;
  }

  /** Marks the job complete now. */
  void finish() {
    complete = true;
    endDate = Instant.now().toString();
  }

  /**
   * @param members the ids of the cluster's members now
   * @param thisNode this node's id
   * @param thisRun this process's run id
   * @return whether the job is incomplete and the node running it is gone: no longer a member, or
   *     this node restarted since
   */
  boolean orphaned(List<String> members, String thisNode, String thisRun) {
    return !complete && (!members.contains(node) || node.equals(thisNode) && !run.equals(thisRun));
  }

  /** Marks an orphaned job complete, the module in progress (else the first pending) failed. */
  void failOrphaned() {
    PlanEntry failed =
        modules.stream()
            .filter(m -> m.stage() == Stage.INVOKE)
            .findFirst()
            .or(
                () ->
                    modules.stream()
                        .filter(m -> m.stage() == Stage.PENDING && m.changes())
                        .findFirst())
            .orElse(null);
    if (failed != null && failed.message() == null) {
      failed.message(ORPHANED);
    }
    finish();
  }

  /**
   * @return the job as stored, with its node
   */
  JsonObject toStored() {
    return toJson().put("node", node).put("run", run);
  }

  /**
   * @return the job as Okapi answers it
   */
  JsonObject toJson() {
    JsonObject json =
        new JsonObject().put("id", id).put("complete", complete).put("startDate", startDate);
    if (endDate != null) {
      json.put("endDate", endDate);
    }
    return json.put("modules", PlanEntry.toJson(modules, true));
  }

  static InstallJob fromStored(JsonObject json) {
    List<PlanEntry> modules = new ArrayList<>();
    json.getJsonArray("modules", new JsonArray())
        .forEach(m -> modules.add(PlanEntry.stored((JsonObject) m)));
    InstallJob job =
        new InstallJob(
            json.getString("id"),
            json.getString("startDate"),
            modules,
            json.getString("node", ""),
            json.getString("run", ""));
    job.complete = json.getBoolean("complete", false);
    job.endDate = json.getString("endDate");
    return job;
  }
}
