package io.okapigw.core.tenantinit;

import io.okapigw.cache.AuthDecision;
import io.okapigw.core.auth.AuthFilterClient;
import io.okapigw.core.callback.Call;
import io.okapigw.core.callback.CallBacks;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.LogText;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.InterfaceDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.RoutingEntry;
import io.okapigw.core.routing.Instances;
import io.okapigw.core.routing.RoutingTable;
import io.okapigw.core.upstream.CallKind;
import io.okapigw.core.upstream.ModuleCall.Answer;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * Calls a module's system interface ({@code _tenantPermissions}, {@code _tenant}, {@code _timer})
 * for a tenant as Okapi 6.1.5 does, through the node's {@link ModuleClient}. When the tenant has an
 * auth module enabled, or the called module is one, its auth filter is asked first ({@link
 * AuthFilterClient#callForSystem}), and the call then carries the token and {@code
 * X-Okapi-Permissions} it answered. One per node: the installer's and the timers' calls alike.
 *
 * <p>Each call is a {@link Call} of the node's {@link CallBacks} while it is in flight, its {@code
 * X-Okapi-Request-Id} ({@code NNNNNN/tenant}, {@code NNNNNN/notices} as Okapi names them, with the
 * call's key) sent to the auth filter and the module: what the module calls back through the
 * gateway meanwhile (a {@code _tenant} call loading reference data, a timer's job) is its call
 * back, served by a draining node and never counted in its tenant's bulkhead.
 */
public final class SystemCalls {

  private final ModuleClient modules;
  private final AuthFilterClient authFilter;
  private final RegistryStore store;
  private final String okapiUrl;
  private final CallBacks calls;

  /**
   * @param modules opens the calls
   * @param authFilter asks the tenant's auth filter about each call
   * @param store where the modules' instances are found
   * @param okapiUrl the gateway's URL, sent as {@code X-Okapi-Url}
   * @param calls the node's calls in flight, each system call among them
   */
  public SystemCalls(
      ModuleClient modules,
      AuthFilterClient authFilter,
      RegistryStore store,
      String okapiUrl,
      CallBacks calls) {
    this.modules = modules;
    this.authFilter = authFilter;
    this.store = store;
    this.okapiUrl = okapiUrl;
    this.calls = calls;
  }

  /**
   * @param tenant the tenant the call is for
   * @param enabled the tenant's enabled modules (where the auth module is looked for)
   * @param module the module called
   * @param handler the system interface's handler that is called; null for none (a legacy {@code
   *     _tenant} 1.0 without handlers)
   * @param path the path called
   * @param body the body, sent as JSON (a {@code _timer} call's is empty)
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
      Buffer body,
      long timeoutMillis) {
    Optional<ModuleDescriptor> auth = authModule(enabled, module);
    Call call = calls.open(tenant, null, idPath(path), auth.isEmpty() ? module.id() : null);
    MultiMap headers = systemHeaders(tenant, call.requestId());
    return credentials(headers, auth, enabled, module, handler, method, path, timeoutMillis)
        .compose(
            credentials ->
                instances(module)
                    .compose(
                        instances ->
                            modules.open(CallKind.SYSTEM, instances, method, path, timeoutMillis))
                    .compose(
                        sent -> {
                          call.sentTo(sent.peer());
                          sent.headers()
                              .addAll(headers)
                              .addAll(credentials)
                              .set("Content-Type", "application/json");
                          return sent.exchange(body, status -> Integer.MAX_VALUE);
                        }))
        .onComplete(answered -> call.close());
  }

  /**
   * @return the path Okapi names a system call's request id after: {@code /tenant} for {@code
   *     /_/tenant}, {@code /notices} for a timer's {@code /notices/send}
   */
  static String idPath(String path) {
    return "/" + path.replaceFirst("^[/_]*([^/]+).*", "$1");
  }

  /**
   * @return the auth module the system call is sent to first (which gets the call's key too), if
   *     any: one of the tenant's, else the module itself if it is one
   */
  private static Optional<ModuleDescriptor> authModule(
      List<ModuleDescriptor> enabled, ModuleDescriptor module) {
    return enabled.stream()
        .filter(m -> m.authFilter().isPresent())
        .findFirst()
        .or(() -> module.authFilter().map(f -> module));
  }

  /** The headers the auth filter answered for the module: its token and permissions, if any. */
  private Future<MultiMap> credentials(
      MultiMap headers,
      Optional<ModuleDescriptor> auth,
      List<ModuleDescriptor> enabled,
      ModuleDescriptor module,
      RoutingEntry handler,
      HttpMethod method,
      String path,
      long timeoutMillis) {
    if (auth.isEmpty()) {
      return Future.succeededFuture(MultiMap.caseInsensitiveMultiMap());
    }
    return instances(auth.get())
        .compose(
            instances ->
                authFilter.callForSystem(
                    instances,
                    method,
                    path,
                    headers,
                    modulePermissions(enabled, module, handler),
                    timeoutMillis))
        .map(decision -> granted(decision, auth.get(), module));
  }

  private static MultiMap granted(
      AuthDecision decision, ModuleDescriptor auth, ModuleDescriptor module) {
    if (!decision.isGrant()) {
      throw HttpError.badRequest(
          "auth module "
              + auth.id()
              + " refused the system call to "
              + module.id()
              + " ("
              + decision.status()
              + "): "
              + excerpt(Buffer.buffer(decision.body())));
    }
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    String token = decision.moduleTokens().getOrDefault(module.id(), decision.moduleToken());
    if (!token.isEmpty()) {
      headers.set(OkapiHeaders.TOKEN, token);
    }
    if (!decision.permissions().isEmpty()) {
      headers.set(OkapiHeaders.PERMISSIONS, decision.permissions());
    }
    return headers;
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

  private MultiMap systemHeaders(String tenant, String requestId) {
    return MultiMap.caseInsensitiveMultiMap()
        .set(OkapiHeaders.TENANT, tenant)
        .set(OkapiHeaders.REQUEST_ID, requestId)
        .set(OkapiHeaders.URL, okapiUrl)
        .set("Accept", "*/*");
  }

  /**
   * @return the module's running instances; failed with 400 if it has none
   */
  private Future<Instances> instances(ModuleDescriptor module) {
    return store
        .deployments()
        .map(
            all -> {
              List<String> urls =
                  all.stream()
                      .filter(d -> d.srvcId().equals(module.id()))
                      .map(DeploymentDescriptor::url)
                      .toList();
              if (urls.isEmpty()) {
                throw HttpError.badRequest(
                    "module "
                        + module.id()
                        + " has no running instance (register one at /_/discovery/modules)");
              }
              return Instances.of(module.id(), urls);
            });
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
   * @return the start of a body, for a message (and the log): its control characters escaped
   */
  public static String excerpt(Buffer body) {
    return LogText.escape(body.length() > 1024 ? body.getString(0, 1024) : body.toString());
  }
}
