package io.okapigw.core.tenantinit;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.EnableHook;
import io.okapigw.core.registry.InterfaceDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.RoutingEntry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * Hands a module's permission sets to the tenant's permissions module (the one providing the
 * {@code _tenantPermissions} system interface) before the module counts as enabled, as Okapi
 * does. When the permissions module itself is enabled, every enabled module's sets are sent.
 */
public final class TenantPermissionsHook implements EnableHook {

  static final String INTERFACE = "_tenantPermissions";

  private final HttpClientAgent client;
  private final RegistryStore store;
  private final String okapiUrl;

  public TenantPermissionsHook(Vertx vertx, RegistryStore store, String okapiUrl) {
    this.client = vertx.createHttpClient();
    this.store = store;
    this.okapiUrl = okapiUrl;
  }

  @Override
  public Future<Void> beforeEnable(String tenant, ModuleDescriptor module,
      List<ModuleDescriptor> enabledAfter) {
    Optional<ModuleDescriptor> provider = enabledAfter.stream()
        .filter(m -> m.providedInterface(INTERFACE).isPresent()).findFirst();
    if (provider.isEmpty()) {
      return Future.succeededFuture();
    }
    List<ModuleDescriptor> toPost = provider.get() == module ? enabledAfter : List.of(module);
    Future<Void> chain = Future.succeededFuture();
    for (ModuleDescriptor m : toPost) {
      chain = chain.compose(v -> post(tenant, provider.get(), m));
    }
    return chain;
  }

  private Future<Void> post(String tenant, ModuleDescriptor provider, ModuleDescriptor module) {
    String path = handlerPath(provider);
    JsonObject body = new JsonObject().put("moduleId", module.id())
        .put("perms", module.permissionSets());
    return instanceUrl(provider)
        .compose(base -> client.request(new RequestOptions().setMethod(HttpMethod.POST)
                .setAbsoluteURI(base + path)
                .putHeader(OkapiHeaders.TENANT, tenant)
                .putHeader(OkapiHeaders.URL, okapiUrl)
                .putHeader("Content-Type", "application/json"))
            .compose(request -> request.send(body.toBuffer()))
            .compose(response -> check(response, provider, module))
            .recover(e -> Future.failedFuture(e instanceof HttpError ? e
                : HttpError.badGateway("cannot hand the permissions of " + module.id() + " to "
                    + provider.id() + " at " + base + ": " + e.getMessage()))));
  }

  private Future<String> instanceUrl(ModuleDescriptor provider) {
    return store.deployments().map(all -> all.stream()
        .filter(d -> d.srvcId().equals(provider.id())).findFirst()
        .map(DeploymentDescriptor::url)
        .orElseThrow(() -> HttpError.badRequest("cannot enable: permissions module "
            + provider.id() + " has no running instance (register one at /_/discovery/modules)")));
  }

  private static Future<Void> check(HttpClientResponse response, ModuleDescriptor provider,
      ModuleDescriptor module) {
    return response.body().compose(body -> response.statusCode() / 100 == 2
        ? Future.succeededFuture()
        : Future.failedFuture(refused(response.statusCode(), body, provider, module)));
  }

  private static HttpError refused(int status, Buffer body, ModuleDescriptor provider,
      ModuleDescriptor module) {
    String text = body.length() > 1024 ? body.getString(0, 1024) : body.toString();
    return new HttpError(status / 100 == 4 ? 400 : 502, "permissions module " + provider.id()
        + " refused the permissions of " + module.id() + " (" + status + "): " + text);
  }

  private static String handlerPath(ModuleDescriptor provider) {
    return provider.providedInterface(INTERFACE)
        .map(InterfaceDescriptor::handlers).orElse(List.of()).stream()
        .filter(h -> h.servesMethod("POST"))
        .map(RoutingEntry::pathPattern)
        .findFirst()
        .orElse("/_/tenantPermissions");
  }
}
