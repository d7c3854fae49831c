package io.okapigw.core.tenantinit;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.InterfaceDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.RoutingEntry;
import io.okapigw.core.routing.RoutingTable;
import io.okapigw.core.upstream.UpstreamClient;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * Calls a module's system interface ({@code _tenantPermissions}, {@code _tenant}, {@code _timer})
 * for a tenant as Okapi 6.1.5 does. When the tenant has an auth module enabled, or the called
 * module is one, its auth filter is asked first (the system method and path, {@code X-Okapi-Filter:
 * auth}, {@code X-Okapi-Module-Permissions} with the handler's module permissions, no token), and
 * the call then carries the token and {@code X-Okapi-Permissions} it answered.
 */
public final class SystemCalls {

  /** A module's answer to a system call. */
  public record Answer(int status, MultiMap headers, Buffer body) {}

  private record Credentials(String token, String permissions) {
    static final Credentials NONE = new Credentials(null, null);
  }

  private final HttpClientAgent client;
  private final RegistryStore store;
  private final String okapiUrl;

  /**
   * @param client the HTTP client for the calls
   * @param store where the modules' instances are found
   * @param okapiUrl the gateway's URL, sent as {@code X-Okapi-Url}
   */
  public SystemCalls(HttpClientAgent client, RegistryStore store, String okapiUrl) {
    this.client = client;
    this.store = store;
    this.okapiUrl = okapiUrl;
  }

  /**
   * @param tenant the tenant the call is for
   * @param enabled the tenant's enabled modules (where the auth module is looked for)
   * @param module the module called
   * @param handler the system interface's handler that is called; null for none (a legacy {@code
   *     _tenant} 1.0 without handlers)
   * @param path the path called
   * @param body the JSON body; null for none
   * @param timeoutMillis how long each of the calls (auth filter, module) may go without an answer;
   *     0 for no limit
   * @return the module's answer; failed with 400/502/504 naming the module if it or the auth module
   *     cannot be reached or does not answer in time, or the auth module refuses
   */
  public Future<Answer> call(
      String tenant,
      List<ModuleDescriptor> enabled,
      ModuleDescriptor module,
      RoutingEntry handler,
      HttpMethod method,
      String path,
      JsonObject body,
      long timeoutMillis) {
    return call(
        tenant,
        enabled,
        module,
        handler,
        method,
        path,
        body == null ? Buffer.buffer() : body.toBuffer(),
        timeoutMillis);
  }

  /**
   * As {@link #call(String, List, ModuleDescriptor, RoutingEntry, HttpMethod, String, JsonObject,
   * long)}, with the body as is (a {@code _timer} call's is empty).
   */
  public Future<Answer> call(
      String tenant,
      List<ModuleDescriptor> enabled,
      ModuleDescriptor module,
      RoutingEntry handler,
      HttpMethod method,
      String path,
      Buffer body,
      long timeoutMillis) {
    return credentials(tenant, enabled, module, handler, method, path, timeoutMillis)
        .compose(
            credentials ->
                send(
                    module,
                    method,
                    path,
                    systemHeaders(tenant)
                        .addAll(credentials(credentials))
                        .set("Content-Type", "application/json"),
                    body,
                    timeoutMillis));
  }

  private Future<Credentials> credentials(
      String tenant,
      List<ModuleDescriptor> enabled,
      ModuleDescriptor module,
      RoutingEntry handler,
      HttpMethod method,
      String path,
      long timeoutMillis) {
    Optional<ModuleDescriptor> auth =
        enabled.stream()
            .filter(m -> m.authFilter().isPresent())
            .findFirst()
            .or(() -> module.authFilter().map(f -> module));
    if (auth.isEmpty()) {
      return Future.succeededFuture(Credentials.NONE);
    }
    MultiMap headers =
        systemHeaders(tenant)
            .set(OkapiHeaders.FILTER, "auth")
            .set(OkapiHeaders.MODULE_PERMISSIONS, modulePermissions(enabled, module, handler));
    return send(auth.get(), method, path, headers, Buffer.buffer(), timeoutMillis)
        .map(answer -> granted(answer, auth.get(), module));
  }

  private static Credentials granted(
      Answer answer, ModuleDescriptor auth, ModuleDescriptor module) {
    if (answer.status() / 100 != 2) {
      throw HttpError.badRequest(
          "auth module "
              + auth.id()
              + " refused the system call to "
              + module.id()
              + " ("
              + answer.status()
              + "): "
              + excerpt(answer.body()));
    }
    String token = answer.headers().get(OkapiHeaders.TOKEN);
    String moduleTokens = answer.headers().get(OkapiHeaders.MODULE_TOKENS);
    if (moduleTokens != null && !moduleTokens.isBlank()) {
      token = new JsonObject(moduleTokens).getString(module.id(), token);
    }
    return new Credentials(token, answer.headers().get(OkapiHeaders.PERMISSIONS));
  }

  private static String modulePermissions(
      List<ModuleDescriptor> enabled, ModuleDescriptor module, RoutingEntry handler) {
    if (handler == null || handler.modulePermissions().isEmpty()) {
      return "{}";
    }
    boolean systemSets =
        enabled.stream()
            .flatMap(m -> m.provides().stream())
            .anyMatch(
                i -> RoutingTable.TENANT_PERMISSIONS.equals(i.id()) && !"1.0".equals(i.version()));
    return new JsonObject()
        .put(
            module.id(),
            systemSets
                ? new JsonArray().add(handler.systemPermissionName(module.id()))
                : new JsonArray(handler.modulePermissions()))
        .encode();
  }

  private MultiMap systemHeaders(String tenant) {
    return MultiMap.caseInsensitiveMultiMap()
        .set(OkapiHeaders.TENANT, tenant)
        .set(OkapiHeaders.URL, okapiUrl)
        .set("Accept", "*/*");
  }

  private static MultiMap credentials(Credentials credentials) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    if (credentials.token() != null) {
      headers.set(OkapiHeaders.TOKEN, credentials.token());
    }
    if (credentials.permissions() != null) {
      headers.set(OkapiHeaders.PERMISSIONS, credentials.permissions());
    }
    return headers;
  }

  private Future<Answer> send(
      ModuleDescriptor module,
      HttpMethod method,
      String path,
      MultiMap headers,
      Buffer body,
      long timeoutMillis) {
    RequestOptions options = new RequestOptions().setMethod(method).setHeaders(headers);
    if (timeoutMillis > 0) {
      options.setIdleTimeout(timeoutMillis);
    }
    return instanceUrl(module)
        .compose(
            base ->
                client
                    .request(options.setAbsoluteURI(base + path))
                    .compose(request -> request.send(body))
                    .map(UpstreamClient::finalAnswer)
                    .compose(SystemCalls::answer)
                    .recover(
                        e ->
                            Future.failedFuture(
                                e instanceof HttpError
                                    ? e
                                    : failure(module, method, path, base, e, timeoutMillis))));
  }

  private static HttpError failure(
      ModuleDescriptor module,
      HttpMethod method,
      String path,
      String base,
      Throwable e,
      long timeoutMillis) {
    String call = "system call " + method + " " + path + " to " + module.id() + " at " + base;
    return e instanceof TimeoutException
        ? HttpError.gatewayTimeout(call + " got no answer within " + timeoutMillis + " ms")
        : HttpError.badGateway(call + " failed: " + e.getMessage());
  }

  private static Future<Answer> answer(HttpClientResponse response) {
    return response.body().map(b -> new Answer(response.statusCode(), response.headers(), b));
  }

  private Future<String> instanceUrl(ModuleDescriptor module) {
    return store
        .deployments()
        .map(
            all ->
                all.stream()
                    .filter(d -> d.srvcId().equals(module.id()))
                    .findFirst()
                    .map(DeploymentDescriptor::baseUrl)
                    .orElseThrow(
                        () ->
                            HttpError.badRequest(
                                "module "
                                    + module.id()
                                    + " has no running instance (register one at /_/discovery/modules)")));
  }

  /**
   * @return the first POST handler of the module's system interface, if it provides it
   */
  static Optional<RoutingEntry> postHandler(ModuleDescriptor module, String interfaceId) {
    return module
        .providedInterface(interfaceId)
        .map(InterfaceDescriptor::handlers)
        .orElse(List.of())
        .stream()
        .filter(h -> h.servesMethod("POST"))
        .findFirst();
  }

  /**
   * @return the start of a body, for a message
   */
  public static String excerpt(Buffer body) {
    return body.length() > 1024 ? body.getString(0, 1024) : body.toString();
  }
}
