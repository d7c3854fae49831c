package io.okapigw.folio.containers;

import io.okapigw.folio.register.AuthtokenDescriptor;
import io.okapigw.folio.register.GatewayRegistration;
import io.okapigw.folio.register.GatewayRegistration.Module;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code register} job: waits for the gateway, the authtoken module and the simulated modules,
 * registers them all on the gateway (authtoken first, so every module enabled after it hands it its
 * permission sets), enables them for the tenant, proves it with a login of the bootstrapped user
 * through the gateway, and, last, protects the admin API (the authtoken module enabled for the
 * supertenant) if asked to. Admin calls the gateway refuses are made again as the super admin.
 * Idempotent: a second run, protected or not, changes nothing.
 */
final class RegisterJob {

  private final Vertx vertx;
  private final RegisterOptions options;
  private final Services services;

  private RegisterJob(Vertx vertx, RegisterOptions options) {
    this.vertx = vertx;
    this.options = options;
    this.services = new Services(vertx);
  }

  /**
   * @return the modules' manifest (see {@link ManifestServer}) once all is registered
   */
  static Future<JsonObject> run(Vertx vertx, RegisterOptions options) {
    RegisterJob registration = new RegisterJob(vertx, options);
    return registration.run().eventually(registration.services::close);
  }

  private Future<JsonObject> run() {
    return awaitServices()
        .compose(v -> services.send(HttpMethod.GET, options.modulesUrl() + "/modules", null, null))
        .map(answer -> answer.body().toJsonObject())
        .compose(manifest -> register(manifest).map(manifest));
  }

  /** Registers everything, proves the login, and protects the admin API if asked to. */
  private Future<Void> register(JsonObject manifest) {
    GatewayRegistration registration =
        GatewayRegistration.create(vertx, options.gateway(), options.superAdmin().orElse(null));
    Module authtoken = new Module(AuthtokenDescriptor.read(), options.authtokenUrl());
    return registration
        .register(options.tenant(), modules(authtoken, manifest))
        .compose(v -> login())
        .compose(
            v ->
                options.protectAdmin()
                    ? registration.protectSupertenant(authtoken).<Void>mapEmpty()
                    : Future.<Void>succeededFuture())
        .eventually(registration::close);
  }

  private Future<Void> awaitServices() {
    return awaitGateway()
        .compose(
            v ->
                services.awaitUp(
                    "authtoken module",
                    options.authtokenUrl() + "/admin/health",
                    a -> a.status() == 200,
                    options.timeout()))
        .compose(
            v ->
                services.awaitUp(
                    "simulated modules",
                    options.modulesUrl() + "/health",
                    a -> a.status() == 200,
                    options.timeout()))
        .mapEmpty();
  }

  /** Our gateway counts its cluster members in its health; Okapi lists its nodes apart. */
  private Future<Void> awaitGateway() {
    int members = options.members();
    return services
        .awaitUp(
            "gateway",
            options.gateway() + "/_/proxy/health",
            a -> GatewayHealth.up(a, members),
            options.timeout())
        .compose(
            health ->
                GatewayHealth.needsNodeCount(health, members)
                    ? services
                        .awaitUp(
                            members + " Okapi nodes",
                            options.gateway() + GatewayHealth.OKAPI_NODES,
                            a -> GatewayHealth.nodes(a, members),
                            options.timeout())
                        .mapEmpty()
                    : Future.succeededFuture());
  }

  /** Authtoken first: every module enabled after it hands it its permission sets. */
  private static List<Module> modules(Module authtoken, JsonObject manifest) {
    List<Module> modules = new ArrayList<>();
    modules.add(authtoken);
    manifest.getJsonArray("modules").stream()
        .map(JsonObject.class::cast)
        .forEach(m -> modules.add(new Module(m.getJsonObject("descriptor"), m.getString("url"))));
    return modules;
  }

  /** A login through the gateway: auth filter, routing and the bootstrapped user all work. */
  private Future<Void> login() {
    MultiMap headers =
        MultiMap.caseInsensitiveMultiMap()
            .add("X-Okapi-Tenant", options.tenant())
            .add("Content-Type", "application/json");
    JsonObject credentials =
        new JsonObject().put("username", options.username()).put("password", options.password());
    return services
        .send(HttpMethod.POST, options.gateway() + "/authn/login", headers, credentials.toBuffer())
        .compose(
            answer ->
                answer.status() == 201 && answer.headers().get("X-Okapi-Token") != null
                    ? Future.succeededFuture()
                    : Future.failedFuture(
                        new IllegalStateException(
                            "login of "
                                + options.username()
                                + " through "
                                + options.gateway()
                                + " answered "
                                + answer.status()
                                + ": "
                                + answer.body())));
  }
}
