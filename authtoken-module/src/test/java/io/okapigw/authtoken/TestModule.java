package io.okapigw.authtoken;

import static io.restassured.RestAssured.given;

import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.password.PasswordOptions;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/** Deploys the module for a test and talks to it over HTTP (RestAssured). */
public final class TestModule {
  /** Tenant most tests use. */
  public static final String TENANT = "diku";

  private final Vertx vertx;
  private final String deploymentId;
  private final AuthtokenVerticle verticle;

  private TestModule(Vertx vertx, String deploymentId, AuthtokenVerticle verticle) {
    this.vertx = vertx;
    this.deploymentId = deploymentId;
    this.verticle = verticle;
  }

  /**
   * @param dir a temporary directory for the JSON store ({@code store}) and the key file
   * @return options for a test module on a free loopback port, hashing cheaply
   */
  public static AuthtokenOptions options(Path dir) {
    return AuthtokenOptions.onLoopback(dir.resolve("store"))
        .withSigningKeyFile(dir.resolve("signing.key").toString())
        .withPasswords(new PasswordOptions(PasswordOptions.MIN_ITERATIONS, 2));
  }

  /**
   * @param vertx Vert.x
   * @param options settings
   * @param clock the module's time
   * @return the deployed module
   */
  public static TestModule deploy(Vertx vertx, AuthtokenOptions options, Clock clock) {
    AuthtokenVerticle verticle = new AuthtokenVerticle(options, clock);
    String id = await(vertx.deployVerticle(verticle));
    return new TestModule(vertx, id, verticle);
  }

  /** Undeploys the module. */
  public void undeploy() {
    await(vertx.undeploy(deploymentId));
  }

  /**
   * @return the port
   */
  public int port() {
    return verticle.actualPort();
  }

  /**
   * @param future a future @param <T> its type @return its result, waiting at most 2 minutes (a
   *     hang guard: a login hashes for seconds on a busy machine)
   */
  public static <T> T await(Future<T> future) {
    try {
      return future.await(2, TimeUnit.MINUTES);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("timed out", e);
    }
  }

  /**
   * @return a request to the module without tenant
   */
  public RequestSpecification request() {
    return given().baseUri("http://127.0.0.1").port(port());
  }

  /**
   * @param tenant tenant @return a request to the module for the tenant
   */
  public RequestSpecification request(String tenant) {
    return request().header(OkapiHeaders.TENANT, tenant);
  }

  /**
   * @param username username
   * @param password password
   * @param permissions permissions
   * @return the new user's id
   */
  public String createUser(String username, String password, List<String> permissions) {
    return createUser(TENANT, username, password, permissions);
  }

  /**
   * @param tenant tenant
   * @param username username
   * @param password password
   * @param permissions permissions
   * @return the new user's id
   */
  public String createUser(
      String tenant, String username, String password, List<String> permissions) {
    String id = UUID.randomUUID().toString();
    request(tenant)
        .contentType(ContentType.JSON)
        .body(
            new JsonObject()
                .put("id", id)
                .put("username", username)
                .put("password", password)
                .put("permissions", new JsonArray(permissions))
                .encode())
        .post("/users")
        .then()
        .statusCode(201);
    return id;
  }

  /**
   * @param username username @param password password @return the login response
   */
  public Response login(String username, String password) {
    return login(TENANT, username, password);
  }

  /**
   * @param tenant tenant @param username username @param password password @return the login
   *     response
   */
  public Response login(String tenant, String username, String password) {
    return request(tenant)
        .contentType(ContentType.JSON)
        .body(new JsonObject().put("username", username).put("password", password).encode())
        .post("/authn/login");
  }

  /**
   * @param username username @param password password @return the access token
   */
  public String token(String username, String password) {
    return token(TENANT, username, password);
  }

  /**
   * @param tenant tenant @param username username @param password password @return the access token
   */
  public String token(String tenant, String username, String password) {
    return login(tenant, username, password)
        .then()
        .statusCode(201)
        .extract()
        .header(OkapiHeaders.TOKEN);
  }

  /**
   * @param moduleId module id
   * @param sets the module's permission sets (Okapi format)
   */
  public void postPermissionSets(String moduleId, JsonArray sets) {
    request(TENANT)
        .contentType(ContentType.JSON)
        .body(new JsonObject().put("moduleId", moduleId).put("perms", sets).encode())
        .post("/_/tenantPermissions")
        .then()
        .statusCode(201);
  }

  /**
   * @return a filter request from the gateway (X-Okapi-Filter: auth) for tenant diku
   */
  public RequestSpecification filter() {
    return request(TENANT)
        .header(OkapiHeaders.FILTER, "auth")
        .header(OkapiHeaders.REQUEST_ID, "test-1")
        .header(OkapiHeaders.URL, "http://127.0.0.1:9130");
  }
}
