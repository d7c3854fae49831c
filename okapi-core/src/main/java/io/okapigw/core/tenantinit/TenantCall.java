package io.okapigw.core.tenantinit;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.InterfaceDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RoutingEntry;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * Which {@code _tenant} call a module gets, and with what body, as Okapi 6.1.5 decides from the
 * interface version:
 *
 * <ul>
 *   <li>1.0: {@code POST} (to the system handler, else {@code /_/tenant}) on enable and upgrade;
 *       {@code DELETE} on purge;
 *   <li>1.1, 1.2: the same, and on disable {@code POST /_/tenant/disable}; 1.2 adds the tenant
 *       parameters;
 *   <li>2.0: always {@code POST} with {@code purge} and the tenant parameters; a {@code 201} with
 *       {@code Location} starts a job, polled with {@code GET .../{id}} and removed with {@code
 *       DELETE .../{id}}.
 * </ul>
 *
 * Body: {@code module_to} (enable, upgrade) and {@code module_from} (upgrade, disable).
 *
 * @param module the module called ({@code to}, else {@code from})
 * @param method the method of the first call
 * @param handler the handler of the first call; null for the legacy {@code /_/tenant}
 * @param path the path of the first call
 * @param body the body of the first call; null for none (a purge's {@code DELETE})
 * @param jobGet the 2.0 job's {@code GET} handler; null if the module runs no jobs
 * @param jobDelete the 2.0 job's {@code DELETE} handler; null if the module runs no jobs
 */
record TenantCall(
    ModuleDescriptor module,
    HttpMethod method,
    RoutingEntry handler,
    String path,
    JsonObject body,
    RoutingEntry jobGet,
    RoutingEntry jobDelete) {

  static final String INTERFACE = "_tenant";
  private static final String DISABLE_PATH = "/_/tenant/disable";

  /**
   * @param from the module disabled or upgraded from; null when enabling
   * @param to the module enabled or upgraded to; null when disabling
   * @param purge whether a disabled module is to drop the tenant's data
   * @param tenantParameters {@code key=value,...}, or null
   * @return the call, or empty when the module has no {@code _tenant} call for this change
   * @throws HttpError 400 for a version Okapi does not know, or a 2.0 interface with a {@code GET}
   *     but no {@code DELETE} job handler
   */
  static Optional<TenantCall> of(
      ModuleDescriptor from, ModuleDescriptor to, boolean purge, String tenantParameters) {
    ModuleDescriptor module = to != null ? to : from;
    Optional<InterfaceDescriptor> itf = module.providedInterface(INTERFACE);
    if (itf.isEmpty()) {
      return Optional.empty();
    }
    JsonObject body = new JsonObject();
    if (to != null) {
      body.put("module_to", to.id());
    }
    if (from != null) {
      body.put("module_from", from.id());
    }
    String version = itf.get().version();
    return switch (version) {
      case "1.0" -> version1(module, itf.get(), body, to != null, purge, true);
      case "1.1" -> version1(module, itf.get(), body, to != null, purge, false);
      case "1.2" ->
          version1(
              module, itf.get(), withParameters(body, tenantParameters), to != null, purge, false);
      case "2.0" ->
          version2(module, itf.get(), withParameters(body.put("purge", purge), tenantParameters));
      default ->
          throw HttpError.badRequest(
              "Unsupported interface _tenant: " + version + " (module " + module.id() + ")");
    };
  }

  private static Optional<TenantCall> version1(
      ModuleDescriptor module,
      InterfaceDescriptor itf,
      JsonObject body,
      boolean enabling,
      boolean purge,
      boolean legacyFallback) {
    if (legacyFallback && !enabling && !purge) {
      return Optional.empty();
    }
    HttpMethod method = purge ? HttpMethod.DELETE : HttpMethod.POST;
    for (RoutingEntry h : systemHandlers(itf)) {
      if (!h.servesMethod(method.name())) {
        continue;
      }
      if (purge) {
        return Optional.of(new TenantCall(module, method, h, h.staticPath(), null, null, null));
      }
      boolean disablePath = DISABLE_PATH.equals(h.staticPath());
      if (disablePath != enabling) {
        return Optional.of(new TenantCall(module, method, h, h.staticPath(), body, null, null));
      }
    }
    if (legacyFallback && !purge) {
      return Optional.of(
          new TenantCall(module, HttpMethod.POST, null, "/_/tenant", body, null, null));
    }
    return Optional.empty();
  }

  private static Optional<TenantCall> version2(
      ModuleDescriptor module, InterfaceDescriptor itf, JsonObject body) {
    Optional<RoutingEntry> post = handler(itf, HttpMethod.POST, "/");
    if (post.isEmpty()) {
      return Optional.empty();
    }
    RoutingEntry get = handler(itf, HttpMethod.GET, "{id}").orElse(null);
    RoutingEntry delete = handler(itf, HttpMethod.DELETE, "{id}").orElse(null);
    if (get != null && delete == null) {
      throw HttpError.badRequest(
          "Missing DELETE method for tenant interface version 2 for" + " module " + module.id());
    }
    return Optional.of(
        new TenantCall(
            module,
            HttpMethod.POST,
            post.get(),
            post.get().staticPath(),
            body,
            get,
            get == null ? null : delete));
  }

  private static Optional<RoutingEntry> handler(
      InterfaceDescriptor itf, HttpMethod method, String pathPart) {
    return systemHandlers(itf).stream()
        .filter(h -> h.servesMethod(method.name()) && h.staticPath().contains(pathPart))
        .findFirst();
  }

  /** Okapi calls only the handlers of an interface declared {@code "interfaceType": "system"}. */
  private static java.util.List<RoutingEntry> systemHandlers(InterfaceDescriptor itf) {
    return "system".equals(itf.interfaceType()) ? itf.handlers() : java.util.List.of();
  }

  /** Okapi's {@code parameters}: {@code [{"key", "value"}]} from {@code k=v,k2=v2,k3}. */
  private static JsonObject withParameters(JsonObject body, String tenantParameters) {
    if (tenantParameters == null) {
      return body;
    }
    JsonArray parameters = new JsonArray();
    for (String pair : tenantParameters.split(",")) {
      String[] kv = pair.split("=");
      if (kv.length > 0) {
        JsonObject p = new JsonObject().put("key", kv[0]);
        if (kv.length > 1) {
          p.put("value", kv[1]);
        }
        parameters.add(p);
      }
    }
    return body.put("parameters", parameters);
  }

  /**
   * @return whether the module may answer with a job to poll
   */
  boolean mayRunJob() {
    return jobGet != null;
  }

  /**
   * @return the path of job {@code id} for a job handler
   */
  static String jobPath(RoutingEntry handler, String id) {
    return handler.staticPath().replace("{id}", id);
  }

  /**
   * @return {@code POST /_/tenant}, for messages
   */
  String describe() {
    return method + " " + path;
  }
}
