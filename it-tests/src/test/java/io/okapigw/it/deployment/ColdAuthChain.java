package io.okapigw.it.deployment;

import static io.restassured.RestAssured.given;

import io.okapigw.it.CpuBurners;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * FOLIO's login chain ({@link FolioAuthChain}) set up cold behind one gateway as an operator sets
 * it up behind Okapi, then its first requests: the descriptors registered, {@code /_/env} (the
 * database, Kafka's address that mod-users resolves), tenant {@code diku}, {@code
 * install?deploy=true} of mod-users, mod-permissions and mod-login (started by the gateway as
 * processes, their {@code _tenant} jobs run), the administrator created while no auth module is
 * enabled (user, credentials, permissions), then mod-users-bl (it requires {@code authtoken}) and
 * mod-authtoken deployed and enabled (no {@code tenantParameters}: with them Okapi 6.1.5 answered
 * mod-authtoken's install 400 "Missing header: X-Okapi-Url"), and at once the first requests of a
 * user: a login through mod-users-bl ({@code /bl-users/login}: mod-login, its {@code /token} calls
 * to mod-authtoken, mod-authtoken's {@code /users} and {@code /perms} look-ups, all through the
 * gateway, all of them cold) and look-ups with the token it gave. Each step's status and time are
 * kept; a set-up step that fails ends the run with its answer.
 */
final class ColdAuthChain {

  /** One step: what was asked, its status, how long it took, the load average after it. */
  record Step(String request, int status, long millis, String load) {

    /** What two gateways are compared by. */
    String outcome() {
      return request + " -> " + status;
    }

    @Override
    public String toString() {
      return String.format("%-58s %d %7d ms  (load %s)", request, status, millis, load);
    }
  }

  static final String TENANT = "diku";
  private static final String ADMIN = "diku_admin";
  private static final String PASSWORD = "cold-chain-" + UUID.randomUUID();

  private final String gateway;
  private final FolioAuthChain chain;
  private final List<Step> setUp = new ArrayList<>();
  private final List<Step> first = new ArrayList<>();
  private String userId;
  private String permsUserId;

  /** Enabled before the administrator is created: mod-users, mod-permissions, mod-login. */
  private static final List<String> FIRST_INSTALL = FolioAuthChain.MODULES.subList(0, 3);

  private ColdAuthChain(String gateway, FolioAuthChain chain) {
    this.gateway = gateway;
    this.chain = chain;
  }

  /** The steps of one run: the set-up's, then the first requests'. */
  record Run(List<Step> setUp, List<Step> first) {}

  /**
   * Sets the chain up behind {@code gateway} (which deploys the modules) on database {@code db},
   * then makes the first requests.
   *
   * @return the steps; the set-up's all succeeded
   */
  static Run run(String gateway, FolioAuthChain chain, PgConnectOptions db) {
    ColdAuthChain run = new ColdAuthChain(gateway, chain);
    run.setUp(db);
    run.firstRequests();
    return new Run(run.setUp, run.first);
  }

  private void setUp(PgConnectOptions db) {
    for (String name : FolioAuthChain.MODULES) {
      setUpStep(
          "POST /_/proxy/modules (" + name + ")",
          201,
          admin().body(descriptor(name)),
          "/_/proxy/modules");
    }
    env("DB_HOST", db.getHost());
    env("DB_PORT", Integer.toString(db.getPort()));
    env("DB_USERNAME", db.getUser());
    env("DB_PASSWORD", db.getPassword());
    env("DB_DATABASE", db.getDatabase());
    env("KAFKA_HOST", "127.0.0.1");
    env("KAFKA_PORT", "9");
    setUpStep(
        "POST /_/proxy/tenants",
        201,
        admin().body(new JsonObject().put("id", TENANT).encode()),
        "/_/proxy/tenants");
    install(FIRST_INSTALL);

    userId = UUID.randomUUID().toString();
    setUpStep(
        "POST /users (" + ADMIN + ")",
        201,
        tenant()
            .body(
                new JsonObject()
                    .put("id", userId)
                    .put("username", ADMIN)
                    .put("active", true)
                    .put(
                        "personal",
                        new JsonObject().put("lastName", "Admin").put("firstName", "Diku"))
                    .encode()),
        "/users");
    setUpStep(
        "POST /authn/credentials",
        201,
        tenant()
            .body(
                new JsonObject()
                    .put("userId", userId)
                    .put("username", ADMIN)
                    .put("password", PASSWORD)
                    .encode()),
        "/authn/credentials");
    List<String> permissions = chain.allPermissions(FIRST_INSTALL);
    permsUserId =
        setUpStep(
                "POST /perms/users " + permissions,
                201,
                tenant()
                    .body(
                        new JsonObject()
                            .put("userId", userId)
                            .put("permissions", new JsonArray(permissions))
                            .encode()),
                "/perms/users")
            .jsonPath()
            .getString("id");
    install(FolioAuthChain.MODULES.subList(FIRST_INSTALL.size(), FolioAuthChain.MODULES.size()));
  }

  /**
   * The first requests after the auth module was enabled: a login, look-ups with its token, the
   * administrator given mod-users-bl's permissions (they exist once it is enabled), its own record
   * through mod-users-bl.
   */
  private void firstRequests() {
    Response login =
        timed(
            "POST /bl-users/login",
            tenant()
                .body(new JsonObject().put("username", ADMIN).put("password", PASSWORD).encode()),
            r -> r.post("/bl-users/login"));
    String token = login.header("X-Okapi-Token");
    Supplier<RequestSpecification> user =
        () -> {
          RequestSpecification r = tenant();
          return token == null ? r : r.header("X-Okapi-Token", token);
        };
    timed(
        "GET /users?query=username==" + ADMIN,
        user.get().queryParam("query", "username==" + ADMIN),
        r -> r.get("/users"));
    timed(
        "GET /perms/users?query=userId=={id}",
        user.get().queryParam("query", "userId==" + userId),
        r -> r.get("/perms/users"));
    timed(
        "POST /perms/users/{id}/permissions (users-bl.all)",
        user.get().body(new JsonObject().put("permissionName", "users-bl.all").encode()),
        r -> r.post("/perms/users/" + permsUserId + "/permissions"));
    timed("GET /bl-users/_self", user.get(), r -> r.get("/bl-users/_self"));
  }

  private String descriptor(String name) {
    return chain.descriptor(name).encode();
  }

  private void install(List<String> names) {
    JsonArray modules = new JsonArray();
    names.forEach(
        n ->
            modules.add(
                new JsonObject()
                    .put("id", chain.descriptor(n).getString("id"))
                    .put("action", "enable")));
    setUpStep(
        "POST /_/proxy/tenants/diku/install?deploy=true " + names,
        200,
        admin().queryParam("deploy", "true").body(modules.encode()),
        "/_/proxy/tenants/" + TENANT + "/install");
  }

  private void env(String name, String value) {
    setUpStep(
        "POST /_/env (" + name + ")",
        201,
        admin().body(new JsonObject().put("name", name).put("value", value).encode()),
        "/_/env");
  }

  /** A set-up step: {@code request} posted to {@code path}, recorded, its status required. */
  private Response setUpStep(String what, int status, RequestSpecification request, String path) {
    long start = System.nanoTime();
    Response r = request.post(path);
    Step step = step(what, r, start);
    setUp.add(step);
    if (r.statusCode() != status) {
      throw new AssertionError(
          gateway + ": set-up step " + step + " expected " + status + ": " + r.asString());
    }
    return r;
  }

  private Response timed(
      String what, RequestSpecification request, Function<RequestSpecification, Response> call) {
    long start = System.nanoTime();
    Response r = call.apply(request);
    Step step = step(what, r, start);
    first.add(step);
    if (r.statusCode() / 100 != 2) {
      System.err.println(gateway + ": " + step + ": " + r.asString());
    }
    return r;
  }

  private static Step step(String what, Response r, long start) {
    return new Step(
        what,
        r.statusCode(),
        (System.nanoTime() - start) / 1_000_000,
        CpuBurners.loadAverage().split(" ")[0]);
  }

  private RequestSpecification admin() {
    return given().baseUri(gateway).contentType("application/json");
  }

  private RequestSpecification tenant() {
    return admin().header("X-Okapi-Tenant", TENANT);
  }
}
