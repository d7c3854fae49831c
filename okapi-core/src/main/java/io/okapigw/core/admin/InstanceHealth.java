package io.okapigw.core.admin;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.upstream.ModuleClient;
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
  Future<List<JsonObject>> check(List<DeploymentDescriptor> instances) {
    List<Future<JsonObject>> checks = instances.stream().map(this::check).toList();
    return Future.all(checks).map(all -> checks.stream().map(Future::result).toList());
  }

  /**
   * @return the instance's health; never fails
   */
  Future<JsonObject> check(DeploymentDescriptor instance) {
    JsonObject health =
        new JsonObject().put("instId", instance.instId()).put("srvcId", instance.srvcId());
    return modules
        .probe(instance.srvcId(), Endpoint.parse(instance.url()), timeout)
        .map(v -> health.put("healthMessage", "OK").put("healthStatus", true))
        .otherwise(
            e ->
                health
                    .put("healthMessage", "Fail: " + reason(e, timeout.toMillis()))
                    .put("healthStatus", false));
  }

  private static String reason(Throwable e, long millis) {
    if (e instanceof TimeoutException) {
      return "no answer within " + millis + " ms";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
