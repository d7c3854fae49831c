package io.okapigw.core.tenantinit;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.LogText;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RoutingEntry;
import io.okapigw.core.upstream.ModuleCall.Answer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a module's {@code _tenant} call and, for a 2.0 job, polls it until it completes, then
 * deletes it, as Okapi 6.1.5 does: the first poll at once, then after {@code tenant.poll-interval},
 * growing 1.25 times per poll. Unlike Okapi, the whole operation is bounded by {@code
 * tenant.init-timeout}: past it, the call fails with 504 naming the module and the job (which is
 * left to the module). Every failure names the module. One operation at a time per tenant and
 * module, waiting for one an earlier call left ({@link TenantOperations}).
 */
final class TenantInterface {

  private static final Logger log = LoggerFactory.getLogger(TenantInterface.class);

  private final Vertx vertx;
  private final SystemCalls calls;
  private final TenantInitOptions options;
  private final Clock clock;
  private final TenantOperations operations;

  /**
   * @param operations keeps a module's {@code _tenant} operations for a tenant one at a time
   */
  TenantInterface(
      Vertx vertx,
      SystemCalls calls,
      TenantInitOptions options,
      Clock clock,
      TenantOperations operations) {
    this.vertx = vertx;
    this.calls = calls;
    this.options = options;
    this.clock = clock;
    this.operations = operations;
  }

  /**
   * @param enabled the tenant's enabled modules (where the auth module is looked for)
   * @return done once the module has done its tenant operation; failed naming the module
   */
  Future<Void> call(String tenant, List<ModuleDescriptor> enabled, TenantCall call) {
    long deadline = clock.millis() + options.timeout().toMillis();
    return operations.run(
        tenant,
        call.module().id(),
        deadline,
        job -> leftJob(tenant, enabled, call, job, deadline),
        op -> call(tenant, enabled, call, deadline, op));
  }

  /**
   * Waits for a job an earlier operation left: done once it is complete and deleted, or cannot be
   * polled (gone, the module answers no job handler, unreachable); failed only past the deadline.
   */
  private Future<Void> leftJob(
      String tenant, List<ModuleDescriptor> enabled, TenantCall call, String path, long deadline) {
    if (!call.mayRunJob()) {
      return Future.succeededFuture();
    }
    return new Job(tenant, enabled, call, path, deadline, null)
        .await()
        .recover(
            e ->
                clock.millis() >= deadline
                    ? Future.failedFuture(e)
                    : Future.<Void>succeededFuture());
  }

  private Future<Void> call(
      String tenant,
      List<ModuleDescriptor> enabled,
      TenantCall call,
      long deadline,
      TenantOperations.Operation op) {
    String module = call.module().id();
    log.info(
        "tenant {}: {} {} of {}",
        tenant,
        call.describe(),
        call.body() == null ? "" : call.body().encode(),
        module);
    return calls
        .call(
            tenant,
            enabled,
            call.module(),
            call.handler(),
            call.method(),
            call.path(),
            call.body() == null ? Buffer.buffer() : call.body().toBuffer(),
            remaining(deadline))
        .compose(
            answer -> {
              String location = answer.headers().get("Location");
              if (location == null || answer.status() / 100 != 2) {
                op.over();
              }
              requireSuccess(answer, call.method(), module, call.path());
              if (location == null) {
                return Future.succeededFuture();
              }
              if (!call.mayRunJob()) {
                throw HttpError.badRequest(
                    "Unexpected Location header in response for module "
                        + module
                        + ": "
                        + call.describe());
              }
              String id = jobId(answer);
              if (id == null) {
                throw HttpError.badRequest(
                    "Missing id property in JSON response for module "
                        + module
                        + ": "
                        + call.describe());
              }
              String path = TenantCall.jobPath(call.jobGet(), id);
              return op.job(path)
                  .compose(v -> new Job(tenant, enabled, call, path, deadline, op).await());
            })
        .onSuccess(v -> log.info("tenant {}: {} done", tenant, module))
        .onFailure(e -> log.warn("tenant {}: {} failed: {}", tenant, module, LogText.message(e)));
  }

  private long remaining(long deadline) {
    return Math.max(1, deadline - clock.millis());
  }

  private static void requireSuccess(Answer answer, HttpMethod method, String module, String path) {
    if (answer.status() / 100 != 2) {
      throw new HttpError(
          answer.status() / 100 == 4 ? 400 : 502,
          method
              + " request for "
              + module
              + " "
              + path
              + " failed with "
              + answer.status()
              + ": "
              + SystemCalls.excerpt(answer.body()));
    }
  }

  private static String jobId(Answer answer) {
    try {
      return new JsonObject(answer.body()).getString("id");
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** One 2.0 job: polled until complete or past the deadline, then deleted. */
  private final class Job {

    private final String tenant;
    private final List<ModuleDescriptor> enabled;
    private final TenantCall call;
    private final String path;
    private final long deadline;
    private final TenantOperations.Operation op;
    private final Promise<Void> done = Promise.promise();

    /**
     * @param path the job's path
     * @param op told when the job is complete; null for a job an earlier operation left
     */
    Job(
        String tenant,
        List<ModuleDescriptor> enabled,
        TenantCall call,
        String path,
        long deadline,
        TenantOperations.Operation op) {
      this.tenant = tenant;
      this.enabled = enabled;
      this.call = call;
      this.path = path;
      this.deadline = deadline;
      this.op = op;
    }

    Future<Void> await() {
      poll(options.pollInterval());
      return done.future();
    }

    private void poll(Duration nextWait) {
      send(HttpMethod.GET, call.jobGet())
          .onFailure(e -> done.tryFail(clock.millis() >= deadline ? timedOut() : e))
          .onSuccess(
              status -> {
                if (Boolean.TRUE.equals(status.getBoolean("complete"))) {
                  if (op != null) {
                    op.over();
                  }
                  send(HttpMethod.DELETE, call.jobDelete())
                      .onFailure(done::tryFail)
                      .onSuccess(v -> finish(status));
                } else if (clock.millis() + nextWait.toMillis() > deadline) {
                  done.tryFail(timedOut());
                } else {
                  vertx.setTimer(
                      nextWait.toMillis(), t -> poll(options.nextPollInterval(nextWait)));
                }
              });
    }

    private HttpError timedOut() {
      return HttpError.gatewayTimeout(
          "module "
              + call.module().id()
              + " did not complete its tenant job "
              + path
              + " for tenant "
              + tenant
              + " within "
              + options.timeout().toMillis()
              + " ms ("
              + TenantInitOptions.TIMEOUT.key()
              + "); the job is left to the module");
    }

    private Future<JsonObject> send(HttpMethod method, RoutingEntry handler) {
      return calls
          .call(
              tenant,
              enabled,
              call.module(),
              handler,
              method,
              path,
              Buffer.buffer(),
              remaining(deadline))
          .map(
              answer -> {
                requireSuccess(answer, method, call.module().id(), path);
                if (method == HttpMethod.DELETE) {
                  return new JsonObject();
                }
                try {
                  return new JsonObject(answer.body());
                } catch (RuntimeException e) {
                  throw HttpError.badGateway(
                      "GET request for "
                          + call.module().id()
                          + " "
                          + path
                          + " answered no JSON object: "
                          + SystemCalls.excerpt(answer.body()));
                }
              });
    }

    private void finish(JsonObject status) {
      String error = status.getString("error");
      if (error == null) {
        done.tryComplete();
        return;
      }
      StringBuilder message = new StringBuilder(error);
      JsonArray messages = status.getJsonArray("messages", new JsonArray());
      messages.forEach(m -> message.append('\n').append(m));
      done.tryFail(
          HttpError.badRequest(
              "Tenant operation failed for module " + call.module().id() + ": " + message));
    }
  }
}
