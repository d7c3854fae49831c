package io.okapigw.core.testing;

import static io.restassured.RestAssured.given;

import com.github.benmanes.caffeine.cache.Ticker;
import io.okapigw.core.Gateway;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.timer.Scheduler;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A gateway started in the test JVM on a free port, with helpers for the admin API. As a field with
 * {@code @RegisterExtension}, one per test, closed after the test's own {@code @AfterEach}.
 */
public final class GatewayFixture implements AutoCloseable, AfterEachCallback {

  private final Vertx vertx;
  private final Gateway gateway;
  private final AtomicInteger instances = new AtomicInteger();

  public GatewayFixture(GatewayOptions options) {
    this.vertx = Vertx.vertx();
    this.gateway = Gateway.start(vertx, options.withPort(0).withInstances(1)).await();
  }

  public GatewayFixture() {
    this(GatewayOptions.defaults(0));
  }

  /** A gateway whose module timers run on {@code scheduler} (a {@link FakeScheduler}). */
  public GatewayFixture(GatewayOptions options, Scheduler scheduler) {
    this.vertx = Vertx.vertx();
    this.gateway =
        Gateway.start(vertx, options.withPort(0).withInstances(1), Ticker.systemTicker(), scheduler)
            .await();
  }

  /**
   * A gateway on {@code ticker} (the auth cache's, the auth breakers' and the bulkhead's clock;
   * tests move a fake).
   */
  public GatewayFixture(GatewayOptions options, Ticker ticker) {
    this.vertx = Vertx.vertx();
    this.gateway =
        Gateway.start(vertx, options.withPort(0).withInstances(1), ticker, Scheduler.system(vertx))
            .await();
  }

  /** A gateway on {@code ticker} whose module timers run on {@code scheduler}. */
  public GatewayFixture(GatewayOptions options, Ticker ticker, Scheduler scheduler) {
    this.vertx = Vertx.vertx();
    this.gateway =
        Gateway.start(vertx, options.withPort(0).withInstances(1), ticker, scheduler).await();
  }

  public Vertx vertx() {
    return vertx;
  }

  public Gateway gateway() {
    return gateway;
  }

  public String url() {
    return "http://localhost:" + gateway.port();
  }

  /**
   * @return a RestAssured request against this gateway
   */
  public RequestSpecification request() {
    return given().baseUri(url());
  }

  /**
   * @return a request with X-Okapi-Tenant set
   */
  public RequestSpecification tenant(String tenant) {
    return request().header("X-Okapi-Tenant", tenant);
  }

  public void createTenant(String id) {
    request()
        .body(new JsonObject().put("id", id).encode())
        .post("/_/proxy/tenants")
        .then()
        .statusCode(201);
  }

  /** Creates a tenant whose requests Keycloak decides ({@code "auth": "eureka"}). */
  public void createEurekaTenant(String id) {
    request()
        .body(new JsonObject().put("id", id).put("auth", "eureka").encode())
        .post("/_/proxy/tenants")
        .then()
        .statusCode(201);
  }

  public void addModule(JsonObject descriptor) {
    request().body(descriptor.encode()).post("/_/proxy/modules").then().statusCode(201);
  }

  /** Registers an instance of the module at {@code url}, with an instance id of its own. */
  public void deploy(String moduleId, String url) {
    String instId = moduleId + "-" + instances.incrementAndGet();
    request()
        .body(instance(moduleId, instId, url).encode())
        .post("/_/discovery/modules")
        .then()
        .statusCode(201);
  }

  public void enable(String tenant, String moduleId) {
    request()
        .body(new JsonObject().put("id", moduleId).encode())
        .post("/_/proxy/tenants/" + tenant + "/modules")
        .then()
        .statusCode(201);
  }

  /** Registers, deploys at {@code url} and enables a module for the tenant. */
  public void install(String tenant, JsonObject descriptor, String url) {
    addModule(descriptor);
    deploy(descriptor.getString("id"), url);
    enable(tenant, descriptor.getString("id"));
  }

  /**
   * Opens a connection to this gateway that sends nothing.
   *
   * @return completes when the gateway has closed it: its {@code server.header-timeout} or {@code
   *     server.idle-timeout}, whichever is shorter, has passed since then. A test waits so for a
   *     timeout to have passed, however slow the machine, instead of sleeping for it.
   */
  public Future<Void> silentConnectionClosed() {
    Promise<Void> closed = Promise.promise();
    vertx
        .createNetClient()
        .connect(gateway.port(), "localhost")
        .onFailure(closed::fail)
        .onSuccess(socket -> socket.closeHandler(v -> closed.complete()));
    return closed.future();
  }

  @Override
  public void close() {
    vertx.close().await();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    close();
  }

  /** A module instance for {@code POST /_/discovery/modules}. */
  public static JsonObject instance(String srvcId, String instId, String url) {
    return new JsonObject().put("srvcId", srvcId).put("instId", instId).put("url", url);
  }

  /** A descriptor providing one interface with the given handlers. */
  public static JsonObject module(String id, String interfaceId, JsonObject... handlers) {
    return new JsonObject()
        .put("id", id)
        .put(
            "provides",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("id", interfaceId)
                        .put("version", "1.0")
                        .put("handlers", new JsonArray(List.of((Object[]) handlers)))));
  }

  /** An auth module: one {@code auth} filter of type {@code headers} on every path. */
  public static JsonObject authModule(String id) {
    return new JsonObject()
        .put("id", id)
        .put(
            "filters",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("methods", new JsonArray().add("*"))
                        .put("pathPattern", "/*")
                        .put("phase", "auth")
                        .put("type", "headers")));
  }

  /** A handler entry: {@code handler("GET", "/items/{id}", "items.item.get")}. */
  public static JsonObject handler(String method, String pathPattern, String... required) {
    return new JsonObject()
        .put("methods", new JsonArray().add(method))
        .put("pathPattern", pathPattern)
        .put("permissionsRequired", new JsonArray(List.of((Object[]) required)));
  }
}
