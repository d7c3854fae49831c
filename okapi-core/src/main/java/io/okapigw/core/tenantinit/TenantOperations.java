package io.okapigw.core.tenantinit;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code _tenant} operation at a time per tenant and module, as the module sees them: a call
 * waits for the one in flight, and for one the gateway gave up on while the module may still run it
 * (its node died, or {@code tenant.init-timeout} passed: "the job is left to the module"), before
 * it is made.
 *
 * <ul>
 *   <li>On this node, calls for one key run one after the other (a queue per key).
 *   <li>Across the cluster, each operation has a record in a cluster-wide map ({@value #MAP}, a
 *       Hazelcast map with backups when Vert.x is clustered, so it outlives the node that wrote
 *       it): its owner (node id and run of the process), and once the module answered 201 the path
 *       of its 2.0 job. It is removed when the gateway saw the operation end (an answer, the job
 *       complete), and marked left when the gateway gave up without seeing it end.
 *   <li>A call that finds a record of a live owner still in flight waits for it to go (the tenant's
 *       install lock makes that rare: the owner holds it). One that finds a record left, or whose
 *       owner is gone (no longer a member, or this node restarted since), waits for its job: polls
 *       it until complete, then deletes it, as its owner would have; then takes the record over and
 *       makes its own call. Its job gone (404) or its module unreachable, it goes on at once.
 *   <li>An operation left without a job (a 1.x call, or a 2.0 POST not answered) cannot be watched
 *       from outside: the call goes on, logging that the module may still run the earlier one.
 * </ul>
 *
 * Every wait is bounded by the call's own deadline ({@code tenant.init-timeout}): past it, 504
 * naming the module and the operation it waited for. A single node's map lives in its process: a
 * restart forgets what its previous run left.
 */
final class TenantOperations {

  private static final Logger log = LoggerFactory.getLogger(TenantOperations.class);

  /** The cluster-wide map of operations in flight, by {@link #key}. */
  static final String MAP = "okapigw.tenant-operations";

  /** The pause between two looks at a live owner's record. */
  static final long PAUSE_MILLIS = 300;

  private final Vertx vertx;
  private final Clock clock;
  private final String node;
  private final String run = UUID.randomUUID().toString();
  private final Supplier<List<String>> members;
  private final Map<String, Future<Void>> queues = new HashMap<>();

  /**
   * @param clock for the deadlines
   * @param node this node's id in the cluster
   * @param members the ids of the cluster's members now, this node's included
   */
  TenantOperations(Vertx vertx, Clock clock, String node, Supplier<List<String>> members) {
    this.vertx = vertx;
    this.clock = clock;
    this.node = node;
    this.members = members;
  }

  /** The record's key: the tenant and the module called. */
  static String key(String tenant, String moduleId) {
    return tenant + "/" + moduleId;
  }

  /**
   * Runs {@code operation} once no other operation of the module for the tenant is in flight.
   *
   * @param deadline clock millis past which the wait fails with 504
   * @param awaitJob waits for a 2.0 job left by an earlier operation, given its path: done once it
   *     is complete and deleted, or gone; failed past the deadline
   * @param operation makes the call, telling the handle its job's path and whether it saw the end
   * @return the operation's outcome
   */
  Future<Void> run(
      String tenant,
      String moduleId,
      long deadline,
      Function<String, Future<Void>> awaitJob,
      Function<Operation, Future<Void>> operation) {
    String key = key(tenant, moduleId);
    Promise<Void> mine = Promise.promise();
    Future<Void> before;
    synchronized (queues) {
      before = queues.getOrDefault(key, Future.succeededFuture());
      queues.put(key, mine.future());
    }
    return before
        .transform(x -> map())
        .compose(
            map ->
                claim(map, key, deadline, awaitJob)
                    .compose(record -> operate(map, key, record, operation)))
        .andThen(
            done -> {
              synchronized (queues) {
                queues.remove(key, mine.future());
              }
              mine.complete();
            });
  }

  private Future<AsyncMap<String, JsonObject>> map() {
    return vertx.sharedData().getAsyncMap(MAP);
  }

  private Future<Void> operate(
      AsyncMap<String, JsonObject> map,
      String key,
      JsonObject record,
      Function<Operation, Future<Void>> operation) {
    Operation op = new Operation(map, key, record);
    Future<Void> result;
    try {
      result = operation.apply(op);
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    return result.eventually(op::end);
  }

  /** Takes the key's record for this call, once no other operation holds it. */
  private Future<JsonObject> claim(
      AsyncMap<String, JsonObject> map,
      String key,
      long deadline,
      Function<String, Future<Void>> awaitJob) {
    JsonObject mine = new JsonObject().put("node", node).put("run", run);
    return map.putIfAbsent(key, mine)
        .compose(
            held -> {
              if (held == null) {
                return Future.succeededFuture(mine);
              }
              if (clock.millis() >= deadline) {
                return Future.failedFuture(stillRunning(key, held));
              }
              if (!held.getBoolean("left", false) && ownerAlive(held)) {
                return pause().compose(v -> claim(map, key, deadline, awaitJob));
              }
              return leftBehind(key, held, awaitJob)
                  .compose(v -> map.replaceIfPresent(key, held, mine))
                  .compose(
                      replaced ->
                          replaced
                              ? Future.succeededFuture(mine)
                              : claim(map, key, deadline, awaitJob));
            });
  }

  /** Waits for the job of an operation nobody watches any more, if it has one. */
  private Future<Void> leftBehind(
      String key, JsonObject held, Function<String, Future<Void>> awaitJob) {
    String job = held.getString("job");
    if (job == null) {
      log.warn(
          "{}: a _tenant call of node {} was given up before its answer; the module may still"
              + " run it",
          key,
          held.getString("node"));
      return Future.succeededFuture();
    }
    log.info(
        "{}: waiting for tenant job {} left by node {} before calling again",
        key,
        job,
        held.getString("node"));
    return awaitJob.apply(job);
  }

  private boolean ownerAlive(JsonObject record) {
    String owner = record.getString("node");
    return members.get().contains(owner)
        && (!owner.equals(node) || run.equals(record.getString("run")));
  }

  private Future<Void> pause() {
    Promise<Void> paused = Promise.promise();
    vertx.setTimer(PAUSE_MILLIS, t -> paused.complete());
    return paused.future();
  }

  private static HttpError stillRunning(String key, JsonObject held) {
    return HttpError.gatewayTimeout(
        key
            + ": an earlier _tenant operation of node "
            + held.getString("node")
            + (held.containsKey("job") ? " (job " + held.getString("job") + ")" : "")
            + " is still running; not called again meanwhile ("
            + TenantInitOptions.TIMEOUT.key()
            + ")");
  }

  /** The record of one operation, kept up to date by the call. */
  final class Operation {
    private final AsyncMap<String, JsonObject> map;
    private final String key;
    private JsonObject record;
    private boolean over;

    private Operation(AsyncMap<String, JsonObject> map, String key, JsonObject record) {
      this.map = map;
      this.key = key;
      this.record = record;
    }

    /** The module started a 2.0 job: its path is recorded, for whoever waits for it. */
    Future<Void> job(String path) {
      JsonObject next = record.copy().put("job", path);
      return map.replaceIfPresent(key, record, next)
          .map(
              replaced -> {
                record = next;
                return null;
              });
    }

    /** The gateway saw the operation end at the module: an answer, the job complete. */
    void over() {
      over = true;
    }

    /** Removes the record if the operation ended, else marks it left to the module. */
    private Future<Void> end() {
      Future<?> done =
          over
              ? map.removeIfPresent(key, record)
              : map.replaceIfPresent(key, record, record.copy().put("left", true));
      return done.<Void>mapEmpty().otherwiseEmpty();
    }
  }
}
