package io.okapigw.authtoken;

import static io.restassured.RestAssured.given;

import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.TestPostgres;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * FOLIO's real mod-permissions 6.5.0 (built from source by {@code
 * ../shared/recipes/folio-auth-chain.sh}), run on its own port with a database of the test
 * PostgreSQL and a tenant initialised as Okapi initialises it, called as Okapi calls it behind
 * mod-authtoken: {@code X-Okapi-Token} (its payload read, not verified, for {@code
 * extra_permissions}) and {@code X-Okapi-User-Id} naming the operating user.
 */
final class RealModPermissions implements AutoCloseable {
  static final String TENANT = "diku";

  private final Process process;
  private final Path log;
  private final String url;

  private RealModPermissions(Process process, Path log, String url) {
    this.process = process;
    this.log = log;
    this.url = url;
  }

  /**
   * @return the jar, as {@code -Dokapigw.mod-permissions=JAR} or the recipe's default place
   */
  static Path jar() {
    return Path.of(
        System.getProperty(
            "okapigw.mod-permissions", "/work/ref/mod-permissions/target/mod-permissions-fat.jar"));
  }

  /** Starts the module and initialises tenant {@value #TENANT}. */
  static RealModPermissions start(Path dir) throws Exception {
    PgConnectOptions db = PgConnectOptions.fromUri(TestPostgres.get().createDatabase());
    int port = FreePorts.belowEphemeralRange();
    Path log = dir.resolve("mod-permissions.log");
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-jar",
                jar().toString(),
                "-Dhttp.port=" + port)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Map<String, String> env = builder.environment();
    env.put("DB_HOST", db.getHost());
    env.put("DB_PORT", Integer.toString(db.getPort()));
    env.put("DB_USERNAME", db.getUser());
    env.put("DB_PASSWORD", db.getPassword());
    env.put("DB_DATABASE", db.getDatabase());
    RealModPermissions module =
        new RealModPermissions(builder.start(), log, "http://127.0.0.1:" + port);
    try {
      module.awaitListening(Duration.ofMinutes(3));
      module.initTenant();
    } catch (Exception | AssertionError e) {
      module.close();
      throw new IllegalStateException(e.getMessage() + "\n" + module.tail(), e);
    }
    return module;
  }

  private void awaitListening(Duration patience) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    Instant deadline = Instant.now().plus(patience);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException("mod-permissions exited " + process.exitValue());
      }
      try {
        client.send(
            HttpRequest.newBuilder(URI.create(url + "/admin/health")).build(),
            HttpResponse.BodyHandlers.discarding());
        return;
      } catch (IOException notYet) {
        process.waitFor(200, java.util.concurrent.TimeUnit.MILLISECONDS);
      }
    }
    throw new IllegalStateException("mod-permissions did not listen within " + patience);
  }

  /** {@code POST /_/tenant} (interface 2.0: a job, waited for) as Okapi's install does. */
  private void initTenant() {
    String location =
        request()
            .body(new JsonObject().put("module_to", "mod-permissions-6.5.0").encode())
            .post("/_/tenant")
            .then()
            .statusCode(201)
            .extract()
            .header("Location");
    request()
        .get(location + "?wait=120000")
        .then()
        .statusCode(200)
        .body("complete", org.hamcrest.Matchers.equalTo(true))
        .body("error", org.hamcrest.Matchers.nullValue());
  }

  /** What Okapi posts when a module is enabled: its permission sets. */
  void postPermissionSets(String moduleId, JsonArray sets) {
    request()
        .body(new JsonObject().put("moduleId", moduleId).put("perms", sets).encode())
        .post("/_/tenantpermissions")
        .then()
        .statusCode(201);
  }

  /**
   * A permissions user created by a trusted call (no token: auth not enabled, as mod-permissions
   * decides).
   *
   * @return the permissions user's id
   */
  String createUser(String userId, List<String> permissions) {
    String id = UUID.randomUUID().toString();
    request()
        .body(
            new JsonObject()
                .put("id", id)
                .put("userId", userId)
                .put("permissions", new JsonArray(permissions))
                .encode())
        .post("/perms/users")
        .then()
        .statusCode(201);
    return id;
  }

  /**
   * {@code PUT /perms/users/{id}} giving the user exactly {@code permissions}, as {@code
   * operatingUser} (null: the anonymous caller, no {@code X-Okapi-User-Id}) with a token carrying
   * {@code extraPermissions}.
   */
  Response putPermissions(
      String operatingUser,
      List<String> extraPermissions,
      String permsUserId,
      String userId,
      List<String> permissions) {
    RequestSpecification request =
        request().header("X-Okapi-Token", token(operatingUser, extraPermissions));
    if (operatingUser != null) {
      request.header("X-Okapi-User-Id", operatingUser);
    }
    return request
        .body(
            new JsonObject()
                .put("id", permsUserId)
                .put("userId", userId)
                .put("permissions", new JsonArray(permissions))
                .encode())
        .put("/perms/users/" + permsUserId);
  }

  /** The permissions user's permissions as stored. */
  List<String> permissionsOf(String permsUserId) {
    return request()
        .get("/perms/users/" + permsUserId)
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getList("permissions", String.class);
  }

  /** A token as mod-authtoken mints one (mod-permissions reads its payload, standard base64). */
  private static String token(String userId, List<String> extraPermissions) {
    JsonObject payload =
        new JsonObject()
            .put("sub", userId == null ? "UNDEFINED_USER__127.0.0.1" : "user-" + userId)
            .put("tenant", TENANT);
    if (userId != null) {
      payload.put("user_id", userId);
    }
    if (!extraPermissions.isEmpty()) {
      payload.put("extra_permissions", new JsonArray(extraPermissions));
    }
    Base64.Encoder base64 = Base64.getEncoder().withoutPadding();
    return base64.encodeToString("{\"alg\":\"HS256\"}".getBytes(StandardCharsets.UTF_8))
        + "."
        + base64.encodeToString(payload.encode().getBytes(StandardCharsets.UTF_8))
        + ".c2lnbmF0dXJl";
  }

  private RequestSpecification request() {
    return given()
        .baseUri(url)
        .header("X-Okapi-Tenant", TENANT)
        .header("X-Okapi-Url", "http://127.0.0.1:9")
        .contentType(ContentType.JSON);
  }

  private String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
