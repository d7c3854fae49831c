package io.okapigw.demo;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.AuthtokenVerticle;
import io.okapigw.authtoken.gateway.InvalidationOptions;
import io.okapigw.authtoken.lookup.UserLookup;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.data.BarcodeCsv;
import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.register.AuthtokenDescriptor;
import io.okapigw.folio.register.GatewayRegistration;
import io.okapigw.folio.register.GatewayRegistration.Module;
import io.okapigw.folio.register.SuperAdmin;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;

/**
 * The simulated library behind a gateway: every circulation module and (unless auth is off) the
 * authtoken module (JSON store) in this Vert.x, registered and enabled for tenant {@code diku} on a
 * gateway, with user {@code diku_admin} / {@code admin} allowed to check items out and in. With
 * auth on, the gateway's admin API is protected last: the authtoken module is enabled for the
 * supertenant, and {@code super_admin} / {@code admin} ({@code okapi.all}) is the user whose token
 * opens it. The gateway can be a single node or any node of a cluster; the same modules can be
 * registered on more gateways.
 */
public final class Library {

  private final Vertx vertx;
  private final DemoOptions options;
  private final CirculationModules modules;
  private final List<Module> registered = new ArrayList<>();
  private final String authtokenUrl;
  private String authtokenDeployment;

  private Library(
      Vertx vertx, DemoOptions options, CirculationModules modules, String authtokenUrl) {
    this.vertx = vertx;
    this.options = options;
    this.modules = modules;
    this.authtokenUrl = authtokenUrl;
  }

  /**
   * Starts the modules and registers them on the gateway; fails with the first problem.
   *
   * @param options patrons, items, auth and data directory (port and cache are the gateway's)
   * @param gatewayUrl the gateway the modules are registered on, and the authtoken module tells
   *     about permission changes
   */
  public static Future<Library> start(Vertx vertx, DemoOptions options, String gatewayUrl) {
    return start(vertx, options, gatewayUrl, null);
  }

  /**
   * As {@link #start(Vertx, DemoOptions, String)}, with an authtoken module that runs already (in a
   * JVM of its own, which a fault scenario can freeze or kill) registered in place of one in this
   * Vert.x; it must hold {@link #users()}.
   *
   * @param authtokenUrl its base URL; {@code null}: start one in this Vert.x
   */
  public static Future<Library> start(
      Vertx vertx, DemoOptions options, String gatewayUrl, String authtokenUrl) {
    return CirculationModules.start(
            vertx,
            new CirculationData.Options(
                CirculationData.Options.DEFAULT_SEED, options.patrons(), options.items()))
        .map(modules -> new Library(vertx, options, modules, authtokenUrl))
        .compose(
            library ->
                library
                    .startModules(gatewayUrl)
                    .compose(v -> library.registerOn(gatewayUrl))
                    .compose(
                        v ->
                            BarcodeCsv.write(
                                vertx, options.dataDir().resolve("barcodes.csv"), library.data()))
                    .map(library));
  }

  /** Authtoken first: every module enabled after it hands it its permission sets. */
  private Future<Void> startModules(String gatewayUrl) {
    Future<Void> authtoken =
        options.auth()
            ? startAuthtoken(gatewayUrl)
                .map(
                    url -> {
                      registered.add(new Module(AuthtokenDescriptor.read(), url));
                      return null;
                    })
            : Future.succeededFuture();
    return authtoken.map(
        v -> {
          modules.deployments().forEach(d -> registered.add(d.module()));
          return null;
        });
  }

  /**
   * Registers and enables these modules for the tenant on a gateway, then, with auth on, protects
   * its admin API (the authtoken module enabled for the supertenant). Idempotent, and works on a
   * gateway protected already.
   */
  public Future<Void> registerOn(String gatewayUrl) {
    GatewayRegistration registration = GatewayRegistration.create(vertx, gatewayUrl, superAdmin());
    return registration
        .register(DemoOptions.TENANT, registered)
        .compose(
            v ->
                options.auth()
                    ? registration.protectSupertenant(registered.get(0)).<Void>mapEmpty()
                    : Future.<Void>succeededFuture())
        .eventually(registration::close);
  }

  /**
   * @return the credentials whose token opens the admin API of a gateway this library protects
   */
  public static SuperAdmin superAdmin() {
    return new SuperAdmin(DemoOptions.SUPER_ADMIN, DemoOptions.SUPER_ADMIN_PASSWORD);
  }

  /**
   * @return the authtoken module's users: the librarian of tenant {@code diku} and the super admin
   */
  public static List<BootstrapUser> users() {
    List<String> perms = new ArrayList<>(CirculationModules.librarianPermissions());
    perms.add("authtoken.all");
    return List.of(
        new BootstrapUser(DemoOptions.TENANT, DemoOptions.ADMIN, DemoOptions.ADMIN_PASSWORD, perms),
        new BootstrapUser(
            SuperAdmin.TENANT,
            DemoOptions.SUPER_ADMIN,
            DemoOptions.SUPER_ADMIN_PASSWORD,
            List.of("okapi.all", "authtoken.all", "perms.users.assign.okapi")));
  }

  private Future<String> startAuthtoken(String gatewayUrl) {
    if (authtokenUrl != null) {
      return Future.succeededFuture(authtokenUrl);
    }
    AuthtokenOptions authtoken =
        AuthtokenOptions.onLoopback(options.dataDir().resolve("authtoken"))
            .withInvalidation(InvalidationOptions.to(gatewayUrl))
            .withUserLookup(options.userLookup() ? UserLookup.GATEWAY : UserLookup.LOCAL)
            .withBootstrap(users());
    AuthtokenVerticle verticle = new AuthtokenVerticle(authtoken);
    return vertx
        .deployVerticle(verticle)
        .map(
            id -> {
              authtokenDeployment = id;
              return "http://127.0.0.1:" + verticle.actualPort();
            });
  }

  /**
   * @return the generated library (barcodes, service point)
   */
  public CirculationData data() {
    return modules.data();
  }

  /**
   * @return the simulated modules (for call counts)
   */
  public CirculationModules modules() {
    return modules;
  }

  /** Stops the modules and the auth module. */
  public Future<Void> close() {
    return modules
        .close()
        .compose(
            v ->
                authtokenDeployment == null
                    ? Future.succeededFuture()
                    : vertx.undeploy(authtokenDeployment));
  }
}
