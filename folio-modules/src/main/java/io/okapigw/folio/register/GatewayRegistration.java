package io.okapigw.folio.register;

import io.okapigw.folio.register.AdminClient.Answer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers simulated modules on an Okapi-compatible gateway through its admin API, one step at a
 * time and idempotently: creates the tenant if missing, posts each descriptor unless the gateway
 * has it, points discovery at each module's URL (replacing instances at other URLs), and enables
 * the modules not enabled yet with one {@code /install} call; and, on request, protects the admin
 * API by enabling an auth module for the supertenant. Works with our gateway and with Okapi
 * (checked against 6.1.5): only the admin calls and answers both have (201 on creation, 404 for
 * what is missing, 204 on delete). Given the super admin's credentials, it works against a
 * protected admin API too (see {@link AdminClient}).
 */
public final class GatewayRegistration {

  private static final Logger log = LoggerFactory.getLogger(GatewayRegistration.class);

  /** The product name of the gateway's own module ({@code okapi-6.1.5} on Okapi). */
  static final String OKAPI_MODULE = "okapi";

  private static final String SUPERTENANT_MODULES =
      "/_/proxy/tenants/" + SuperAdmin.TENANT + "/modules";

  /**
   * A module to register: its descriptor and the URL of its one instance.
   *
   * @param descriptor the module descriptor (its {@code id} names the module)
   * @param url the instance's base URL
   */
  public record Module(JsonObject descriptor, String url) {

    /**
     * @return the module id from the descriptor
     */
    public String id() {
      return descriptor.getString("id");
    }
  }

  private final Vertx vertx;
  private final AdminClient admin;

  private GatewayRegistration(Vertx vertx, AdminClient admin) {
    this.vertx = vertx;
    this.admin = admin;
  }

  /**
   * @param adminUrl the gateway's URL, e.g. {@code http://localhost:9130}
   * @param superAdmin the super admin's credentials, used when the admin API refuses a call; null
   *     when none are known (then a protected admin API fails the first step)
   * @return a registration; {@link #close()} it when done
   */
  public static GatewayRegistration create(Vertx vertx, String adminUrl, SuperAdmin superAdmin) {
    String url = adminUrl.endsWith("/") ? adminUrl.substring(0, adminUrl.length() - 1) : adminUrl;
    return new GatewayRegistration(vertx, new AdminClient(vertx, url, superAdmin));
  }

  /**
   * Registers on an open admin API; see {@link #register(String, List)}.
   *
   * @param adminUrl the gateway's URL, e.g. {@code http://localhost:9130}
   */
  public static Future<Void> register(
      Vertx vertx, String adminUrl, String tenant, List<Module> modules) {
    GatewayRegistration registration = create(vertx, adminUrl, null);
    return registration.register(tenant, modules).eventually(registration::close);
  }

  /**
   * @param tenant the tenant to enable the modules for, created if missing
   * @param modules in an order that can be enabled one by one
   * @return done; failed with an {@link IllegalStateException} naming the step and the gateway's
   *     answer
   */
  public Future<Void> register(String tenant, List<Module> modules) {
    return onContext(
        () ->
            ensureTenant(tenant)
                .compose(v -> ensureDescriptors(modules))
                .compose(v -> ensureDiscovery(modules))
                .compose(v -> ensureEnabled(tenant, modules))
                .onSuccess(
                    v ->
                        log.info(
                            "{} modules registered and enabled for tenant {} on {}",
                            modules.size(),
                            tenant,
                            admin.adminUrl())));
  }

  /**
   * Protects the admin API: enables {@code authModule} (registered already, e.g. by {@link
   * #register(String, List)}) for the supertenant unless it is enabled there. Before enabling,
   * checks that the super admin can log in at the module itself, so that a missing bootstrap cannot
   * lock everyone out; after, that the super admin's token opens the admin API ({@code GET
   * /_/proxy/tenants}).
   *
   * @param authModule the auth module and the URL this process reaches it at
   * @return true if it enabled the module now, false if it was enabled already; failed naming the
   *     step if there are no credentials, the super admin cannot log in, or the gateway refused a
   *     step
   */
  public Future<Boolean> protectSupertenant(Module authModule) {
    if (!admin.hasCredentials()) {
      return Future.failedFuture(
          new IllegalStateException(
              "protecting the admin API needs the"
                  + " super admin's credentials (a user of "
                  + SuperAdmin.TENANT
                  + " with okapi.all)"));
    }
    return onContext(
        () ->
            ids(SUPERTENANT_MODULES)
                .compose(
                    enabled -> {
                      if (enabled.contains(authModule.id())) {
                        log.info(
                            "admin API of {} already protected by {}",
                            admin.adminUrl(),
                            authModule.id());
                        return Future.succeededFuture(false);
                      }
                      return admin
                          .login(authModule.url())
                          .recover(
                              e ->
                                  Future.failedFuture(
                                      new IllegalStateException(
                                          "not protecting the admin"
                                              + " API: the super admin could not log in at the auth module, so nobody could use"
                                              + " it afterwards ("
                                              + e.getMessage()
                                              + ")",
                                          e)))
                          .compose(
                              t ->
                                  post(
                                      SUPERTENANT_MODULES,
                                      new JsonObject().put("id", authModule.id())))
                          .compose(
                              v -> admin.loginThroughGateway("checking the protected admin API"))
                          .compose(v -> admin.send(HttpMethod.GET, "/_/proxy/tenants", null))
                          .map(list -> expect(list, "GET /_/proxy/tenants as the super admin", 200))
                          .map(
                              v -> {
                                log.info(
                                    "admin API of {} protected by {}",
                                    admin.adminUrl(),
                                    authModule.id());
                                return true;
                              });
                    }));
  }

  /** Closes the HTTP client. */
  public Future<Void> close() {
    return admin.close();
  }

  /**
   * Runs the chain on a Vert.x context: from a plain thread, a response future can complete before
   * body() is attached, and the body is then lost (the call never completes).
   */
  private <T> Future<T> onContext(Supplier<Future<T>> chain) {
    Promise<T> done = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> chain.get().onComplete(done));
    return done.future();
  }

  private Future<Void> ensureTenant(String tenant) {
    return ids("/_/proxy/tenants")
        .compose(
            tenants ->
                tenants.contains(tenant)
                    ? Future.succeededFuture()
                    : post("/_/proxy/tenants", new JsonObject().put("id", tenant)));
  }

  /** Posts the descriptors not registered yet, in the modules' order (requirements first). */
  private Future<Void> ensureDescriptors(List<Module> modules) {
    return ids("/_/proxy/modules")
        .compose(
            registered -> {
              Future<Void> chain = Future.succeededFuture();
              for (Module module : modules) {
                if (!registered.contains(module.id())) {
                  chain = chain.compose(v -> post("/_/proxy/modules", module.descriptor()));
                }
              }
              return chain;
            });
  }

  /**
   * The ids a collection of the admin API lists: one call, where a lookup per item would log a 404
   * at the gateway for each thing not there yet.
   */
  private Future<List<String>> ids(String path) {
    return admin
        .send(HttpMethod.GET, path, null)
        .map(
            answer -> {
              expect(answer, "GET " + path, 200);
              return answer.body().toJsonArray().stream()
                  .map(m -> ((JsonObject) m).getString("id"))
                  .toList();
            });
  }

  /**
   * Enables the modules not enabled yet with one install call, as a FOLIO operator does: the
   * gateway orders them, pulls in what they require, and calls each one's {@code _tenant}
   * interface. The gateway's own module ({@code okapi}, the newest the gateway has) comes first, as
   * in FOLIO's install files: with it the tenant's users read the tenant's modules and the
   * gateway's version ({@code GET /_/proxy/tenants/{t}/modules}, {@code GET /_/version}), which is
   * how Stripes discovers the interfaces it may use.
   */
  private Future<Void> ensureEnabled(String tenant, List<Module> modules) {
    return ids("/_/proxy/tenants/" + tenant + "/modules")
        .compose(
            enabled -> {
              JsonArray install = new JsonArray();
              if (enabled.stream().noneMatch(id -> id.startsWith(OKAPI_MODULE + "-"))) {
                install.add(new JsonObject().put("id", OKAPI_MODULE).put("action", "enable"));
              }
              modules.stream()
                  .filter(m -> !enabled.contains(m.id()))
                  .forEach(
                      m -> install.add(new JsonObject().put("id", m.id()).put("action", "enable")));
              if (install.isEmpty()) {
                return Future.succeededFuture();
              }
              String call = "/_/proxy/tenants/" + tenant + "/install";
              return admin
                  .post(call, install)
                  .map(a -> expect(a, "POST " + call + " " + install.encode(), 200));
            });
  }

  /** Points each module's discovery entry at its one instance, with one listing call. */
  private Future<Void> ensureDiscovery(List<Module> modules) {
    String path = "/_/discovery/modules";
    return admin
        .send(HttpMethod.GET, path, null)
        .compose(
            answer -> {
              expect(answer, "GET " + path, 200);
              Map<String, JsonArray> bySrvcId = new HashMap<>();
              answer.body().toJsonArray().stream()
                  .map(JsonObject.class::cast)
                  .forEach(
                      d ->
                          bySrvcId
                              .computeIfAbsent(d.getString("srvcId"), id -> new JsonArray())
                              .add(d));
              Future<Void> chain = Future.succeededFuture();
              for (Module module : modules) {
                JsonArray instances = bySrvcId.getOrDefault(module.id(), new JsonArray());
                chain = chain.compose(v -> ensureDiscovery(module, instances));
              }
              return chain;
            });
  }

  private Future<Void> ensureDiscovery(Module module, JsonArray instances) {
    if (instances.size() == 1 && module.url().equals(instances.getJsonObject(0).getString("url"))) {
      return Future.succeededFuture();
    }
    String path = "/_/discovery/modules/" + module.id();
    Future<Void> cleared =
        instances.isEmpty()
            ? Future.succeededFuture()
            : admin.send(HttpMethod.DELETE, path, null).map(a -> expect(a, "DELETE " + path, 204));
    return cleared.compose(v -> post("/_/discovery/modules", deployment(module)));
  }

  /**
   * The deployment of the module's one instance. The {@code instId} is the module id: Okapi refuses
   * a deployment without one ("Needs instId") unless it launched the module itself.
   */
  static JsonObject deployment(Module module) {
    return new JsonObject()
        .put("srvcId", module.id())
        .put("instId", module.id())
        .put("url", module.url());
  }

  private Future<Void> post(String path, JsonObject body) {
    return admin.send(HttpMethod.POST, path, body).map(a -> expect(a, "POST " + path, 201));
  }

  private Void expect(Answer answer, String step, int status) {
    return expect(answer, step, status, String.valueOf(status));
  }

  private Void expect(Answer answer, String step, int status, String expected) {
    if (answer.status() != status) {
      throw new IllegalStateException(
          step
              + " answered "
              + answer.status()
              + " (expected "
              + expected
              + "): "
              + answer.body()
              + refusalHint(answer.status()));
    }
    return null;
  }

  private String refusalHint(int status) {
    if (status != 401 && status != 403) {
      return "";
    }
    return admin.hasCredentials()
        ? " (refused to the super admin's token too: does the user" + " hold okapi.all?)"
        : " (the admin API is protected: give the super admin's credentials)";
  }
}
