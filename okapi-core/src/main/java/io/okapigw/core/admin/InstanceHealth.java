package io.okapigw.core.admin;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.upstream.ModuleClient;
import io.okapigw.core.upstream.balance.InstanceView;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * Okapi's health check of module instances ({@code /_/discovery/health}): a {@code GET} of the
 * instance's URL on a connection of its own ({@link ModuleClient#probe}); any HTTP answer read to
 * its end is healthy, anything else (refused, reset, no answer within its timeout) is not. Answers
 * are Okapi's {@code {instId, srvcId, healthMessage: "OK" | "Fail: ...", healthStatus}}. Instances
 * are checked at once, without blocking the event loop, so a list answers within about the timeout
 * ({@link #TIMEOUT} in the admin API) however many instances are dead.
 */
final class InstanceHealth {

  /** How long one instance may take to connect and answer (Okapi waits without a bound). */
  static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final ModuleClient modules;
  private final Duration timeout;

  /**
   * @param modules opens the checks' connections
   * @param timeout how long one instance may take to connect and answer
   */
  InstanceHealth(ModuleClient modules, Duration timeout) {
    this.modules = modules;
    this.timeout = timeout;
  }

  /**
   * @return the health of each instance, in the order given
   */
  Future<List<JsonObject>> check(List<DeploymentDescriptor> instances, boolean learned) {
    List<Future<JsonObject>> checks = instances.stream().map(i -> check(i, learned)).toList();
    return Future.all(checks).map(all -> checks.stream().map(Future::result).toList());
  }

  /**
   * @param learned whether to add what this node has learned of the instance ({@link #learned})
   * @return the instance's health; never fails
   */
  Future<JsonObject> check(DeploymentDescriptor instance, boolean learned) {
    JsonObject health =
        new JsonObject().put("instId", instance.instId()).put("srvcId", instance.srvcId());
    Endpoint endpoint = Endpoint.parse(instance.url());
    return modules
        .probe(instance.srvcId(), endpoint, timeout)
        .map(v -> health.put("healthMessage", "OK").put("healthStatus", true))
        .otherwise(
            e ->
                health
                    .put("healthMessage", "Fail: " + reason(e, timeout.toMillis()))
                    .put("healthStatus", false))
        .map(checked -> learned ? learned(checked, instance.srvcId(), endpoint) : checked);
  }

  /**
   * Adds {@code learned}: what this node's calls taught it of the instance (after this check, which
   * it learns from too): {@code ejected}, {@code ejectedForMs}, {@code consecutiveFailures}, {@code
   * ejections}, {@code outstanding}, {@code onProbation}, {@code stalled}, {@code latencyMs};
   * absent if the node never called it.
   */
  private JsonObject learned(JsonObject health, String moduleId, Endpoint endpoint) {
    InstanceView view = modules.balancer().view(moduleId, endpoint);
    if (view == null) {
      return health;
    }
    return health.put(
        "learned",
        new JsonObject()
            .put("ejected", view.ejected())
            .put("ejectedForMs", view.ejectedForMillis())
            .put("consecutiveFailures", view.consecutiveFailures())
            .put("ejections", view.ejections())
            .put("outstanding", view.outstanding())
            .put("onProbation", view.onProbation())
            .put("stalled", view.stalled())
            .put("latencyMs", Math.round(view.latencyMillis() * 1000) / 1000.0));
  }

  private static String reason(Throwable e, long millis) {
    if (e instanceof TimeoutException) {
      return "no answer within " + millis + " ms";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
