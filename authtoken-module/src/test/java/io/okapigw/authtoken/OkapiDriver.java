package io.okapigw.authtoken;

import io.okapigw.authtoken.http.OkapiHeaders;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Calls the module exactly as Okapi 6.1.5 does (headers recorded side by side with a recording
 * peer): first the auth filter call, with the client's method, path and headers, no body, no {@code
 * X-Okapi-Filter}, comma-separated permission lists and {@code X-Okapi-Module-Permissions} always
 * ({@code {}} when none); then, if it answered 2xx, the handler call without those headers,
 * carrying the token the filter answered for the handler's module ({@code
 * X-Okapi-Module-Tokens[moduleId]}, else {@code X-Okapi-Token}) and the answer's {@code
 * X-Okapi-Permissions} and {@code X-Okapi-User-Id}.
 */
final class OkapiDriver {
  /** What Okapi sends as {@code X-Okapi-Url}. */
  static final String OKAPI_URL = "http://127.0.0.1:9330";

  /** A client header: Okapi copies every client header to the filter and the handler. */
  static final String CUSTOM = "X-Custom";

  private final TestModule module;
  private final String tenant;
  private final AtomicLong requestIds = new AtomicLong(466_120);

  /**
   * @param module the module @param tenant the tenant of every call
   */
  OkapiDriver(TestModule module, String tenant) {
    this.module = module;
    this.tenant = tenant;
  }

  /**
   * What Okapi knows of the route a request takes: the handler's module and the permissions of the
   * pipeline's routing entries.
   *
   * @param moduleId the handler's module
   * @param required permissionsRequired
   * @param desired permissionsDesired
   * @param modulePermissions module id to modulePermissions (or the {@code SYS#} name)
   */
  record Route(
      String moduleId,
      List<String> required,
      List<String> desired,
      Map<String, List<String>> modulePermissions) {

    /**
     * @param moduleId the handler's module @param required permissionsRequired @return a route
     */
    static Route of(String moduleId, String... required) {
      return new Route(moduleId, List.of(required), List.of(), Map.of());
    }

    /**
     * @param desired permissionsDesired @return this route with them
     */
    Route desiring(String... desired) {
      return new Route(moduleId, required, List.of(desired), modulePermissions);
    }

    /**
     * @param module a module of the pipeline @param perms its module permissions @return this route
     *     with them
     */
    Route withModulePermissions(String module, String... perms) {
      Map<String, List<String>> map = new LinkedHashMap<>(modulePermissions);
      map.put(module, List.of(perms));
      return new Route(moduleId, required, desired, map);
    }

    String modulePermissionsHeader() {
      JsonObject json = new JsonObject();
      modulePermissions.forEach((module, perms) -> json.put(module, new JsonArray(perms)));
      return json.encode();
    }
  }

  /**
   * The auth filter call of a proxied request.
   *
   * @param method the client's method
   * @param pathAndQuery the client's path and query
   * @param token the client's token, or {@code null}
   * @param route the route
   * @return the filter's answer
   */
  Response filter(String method, String pathAndQuery, String token, Route route) {
    RequestSpecification request =
        common(method)
            .header("X-Okapi-Match-Path-Pattern", "/*")
            .header(OkapiHeaders.MODULE_PERMISSIONS, route.modulePermissionsHeader());
    if (!route.desired().isEmpty()) {
      request.header(OkapiHeaders.PERMISSIONS_DESIRED, String.join(",", route.desired()));
    }
    if (!route.required().isEmpty()) {
      request.header(OkapiHeaders.PERMISSIONS_REQUIRED, String.join(",", route.required()));
    }
    if (token != null) {
      request.header(OkapiHeaders.TOKEN, token);
    }
    return request.request(method, pathAndQuery);
  }

  /**
   * The auth filter call before a system call (e.g. {@code POST /_/tenantPermissions} when enabling
   * a module): {@code X-Okapi-Filter: auth}, no token, and the handler's module permissions if any.
   *
   * @param method method of the system call
   * @param path path of the system call
   * @param modulePermissions {@code X-Okapi-Module-Permissions}, or {@code null} for none
   * @return the filter's answer
   */
  Response systemFilter(String method, String path, String modulePermissions) {
    RequestSpecification request =
        module
            .request(tenant)
            .header(OkapiHeaders.FILTER, "auth")
            .header(OkapiHeaders.URL, OKAPI_URL)
            .header(OkapiHeaders.REQUEST_ID, nextRequestId());
    if (modulePermissions != null) {
      request.header(OkapiHeaders.MODULE_PERMISSIONS, modulePermissions);
    }
    return request.request(method, path);
  }

  /**
   * The handler call after a granting filter answer.
   *
   * @param answer the filter's 2xx answer
   * @param route the route (its module picks the module token)
   * @param method method
   * @param pathAndQuery path and query
   * @param jsonBody the client's body, or {@code null}
   * @return the handler's answer
   */
  Response handler(
      Response answer, Route route, String method, String pathAndQuery, String jsonBody) {
    JsonObject moduleTokens = new JsonObject(answer.header(OkapiHeaders.MODULE_TOKENS));
    String token = moduleTokens.getString(route.moduleId(), answer.header(OkapiHeaders.TOKEN));
    RequestSpecification request =
        common(method)
            .header("X-Okapi-Match-Path-Pattern", "/*")
            .header(OkapiHeaders.TOKEN, token)
            .header(OkapiHeaders.PERMISSIONS, answer.header(OkapiHeaders.PERMISSIONS));
    if (answer.header(OkapiHeaders.USER_ID) != null) {
      request.header(OkapiHeaders.USER_ID, answer.header(OkapiHeaders.USER_ID));
    }
    if (jsonBody != null) {
      request.header("Content-Type", "application/json").body(jsonBody);
    }
    return request.request(method, pathAndQuery);
  }

  /**
   * A whole proxied request: the filter call, then the handler call if the filter granted it.
   *
   * @param method method
   * @param pathAndQuery path and query
   * @param token the client's token, or {@code null}
   * @param route the route
   * @param jsonBody the client's body, or {@code null}
   * @return the handler's answer, or the filter's refusal
   */
  Response proxy(String method, String pathAndQuery, String token, Route route, String jsonBody) {
    Response answer = filter(method, pathAndQuery, token, route);
    if (answer.statusCode() / 100 != 2) {
      return answer;
    }
    return handler(answer, route, method, pathAndQuery, jsonBody);
  }

  private RequestSpecification common(String method) {
    return module
        .request(tenant)
        .header(CUSTOM, "c1")
        .header(OkapiHeaders.REQUEST_ID, nextRequestId())
        .header("X-Okapi-request-ip", "127.0.0.1")
        .header("X-Okapi-request-method", method)
        .header("X-Okapi-request-timestamp", Long.toString(System.currentTimeMillis()))
        .header(OkapiHeaders.URL, OKAPI_URL);
  }

  private String nextRequestId() {
    return requestIds.incrementAndGet() + "/b";
  }
}
