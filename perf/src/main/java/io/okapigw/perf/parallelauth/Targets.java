package io.okapigw.perf.parallelauth;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

/**
 * Where {@code parallel-auth} sends each {@link Route}'s requests, and how.
 *
 * @param module the fixed module (the handler)
 * @param authtoken the authtoken module
 * @param sequentialGateway the gateway with {@code auth.parallel=off}
 * @param parallelGateway the gateway with {@code auth.parallel=safe}
 */
record Targets(String module, String authtoken, String sequentialGateway, String parallelGateway) {

  static final String PATH = "/fixed";

  /**
   * Another route of the module, on which each token is used once before it is measured, so that
   * its identity is known to the gateway (parallel auth runs a handler before the decision only for
   * a token the auth module has accepted) while {@link #PATH} is still a cache miss.
   */
  static final String KNOWN_PATH = "/fixed/known";

  static final String PERMISSION = "fixed.get";
  private static final long IDLE_TIMEOUT_MILLIS = 30_000;

  /**
   * @return {@code GET /fixed} and {@code GET /fixed/known} requiring {@value #PERMISSION}, nothing
   *     else
   */
  static JsonObject fixedDescriptor() {
    return new JsonObject(
        """
        {"id": "mod-fixed-1.0.0", "provides": [{"id": "fixed", "version": "1.0", "handlers": [
          {"methods": ["GET"], "pathPattern": "%s", "permissionsRequired": ["%s"]},
          {"methods": ["GET"], "pathPattern": "%s", "permissionsRequired": ["%s"]}]}]}
        """
            .formatted(PATH, PERMISSION, KNOWN_PATH, PERMISSION));
  }

  /**
   * @return a request of {@code route}'s gateway on {@link #KNOWN_PATH} with {@code token}: it
   *     makes the token known, not measured
   */
  RequestOptions known(Route route, String token) {
    String gateway = route == Route.SEQUENTIAL ? sequentialGateway : parallelGateway;
    return viaGateway(gateway, token).setAbsoluteURI(gateway + KNOWN_PATH);
  }

  /**
   * @return request {@code i} of {@code route}, carrying {@code token}
   */
  RequestOptions request(Route route, String token, int i) {
    return switch (route) {
      case HANDLER -> get(module);
      case AUTH -> authFilterCall(token, i);
      case SEQUENTIAL -> viaGateway(sequentialGateway, token);
      case PARALLEL, HIT -> viaGateway(parallelGateway, token);
    };
  }

  private static RequestOptions viaGateway(String gateway, String token) {
    return get(gateway)
        .putHeader("X-Okapi-Tenant", ParallelAuthBench.USER.tenant())
        .putHeader("X-Okapi-Token", token);
  }

  /** The call the gateway makes to the auth filter on a miss (AuthFilterClient), made directly. */
  private RequestOptions authFilterCall(String token, int i) {
    return get(authtoken)
        .putHeader("X-Okapi-Tenant", ParallelAuthBench.USER.tenant())
        .putHeader("X-Okapi-Url", sequentialGateway)
        .putHeader("X-Okapi-Request-Id", "parallel-auth-" + i)
        .putHeader("X-Okapi-Permissions-Required", PERMISSION)
        .putHeader("X-Okapi-Module-Permissions", "{}")
        .putHeader("X-Okapi-Token", token);
  }

  private static RequestOptions get(String base) {
    return new RequestOptions()
        .setMethod(HttpMethod.GET)
        .setAbsoluteURI(base + PATH)
        .setIdleTimeout(IDLE_TIMEOUT_MILLIS);
  }
}
