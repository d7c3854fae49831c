package io.okapigw.core.eureka;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.testsupport.Await;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An Eureka tenant's modules from Eureka's own data: mgr-tenant-entitlements' entitled applications
 * (with their module descriptors) and mgr-applications' discovery, served here in their documented
 * JSON (their OpenAPI: {@code applicationDescriptors}, {@code moduleDiscoveries}); the real
 * services need FOLIO's own repository to build.
 */
class EurekaEntitlementsTest {

  private final Vertx services = Vertx.vertx();
  private final List<String> asked = new CopyOnWriteArrayList<>();
  private GatewayFixture gw;
  private TestModule things;

  @AfterEach
  void stop() {
    if (gw != null) {
      gw.close();
    }
    services.close().await();
  }

  private HttpServer eurekaServices(String thingsUrl) {
    JsonObject descriptor = module("mod-things-1.0.0", "things", handler("GET", "/things"));
    JsonObject app =
        new JsonObject()
            .put("id", "app-things-1.0.0")
            .put("name", "app-things")
            .put("version", "1.0.0")
            .put(
                "modules",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("id", "mod-things-1.0.0")
                            .put("name", "mod-things")
                            .put("version", "1.0.0")))
            .put("moduleDescriptors", new JsonArray().add(descriptor));
    Router router = Router.router(services);
    router
        .route()
        .handler(
            ctx -> {
              asked.add(ctx.request().method() + " " + ctx.request().uri());
              ctx.next();
            });
    router
        .get("/entitlements/eur/applications")
        .handler(
            ctx ->
                ctx.json(
                    new JsonObject()
                        .put("applicationDescriptors", new JsonArray().add(app))
                        .put("totalRecords", 1)));
    router
        .get("/applications/app-things-1.0.0/discovery")
        .handler(
            ctx ->
                ctx.json(
                    new JsonObject()
                        .put(
                            "discovery",
                            new JsonArray()
                                .add(
                                    new JsonObject()
                                        .put("id", "mod-things-1.0.0")
                                        .put("name", "mod-things")
                                        .put("version", "1.0.0")
                                        .put("location", thingsUrl)))
                        .put("totalRecords", 1)));
    return services.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
  }

  private GatewayFixture gateway(String url, String refresh) {
    return new GatewayFixture(
        GatewayOptions.defaults(0)
            .withEureka(
                EurekaOptions.from(
                    Settings.of(
                        Map.of(
                            "eureka.keycloak-url",
                            "http://127.0.0.1:1",
                            "eureka.entitlements-url",
                            url,
                            "eureka.applications-url",
                            url,
                            "eureka.entitlements-refresh",
                            refresh)))));
  }

  @Test
  void entitledApplications_registeredAndEnabled_withoutCallingTheModules() {
    Vertx modules = Vertx.vertx();
    things =
        TestModule.start(
            modules, router -> router.route().handler(ctx -> ctx.response().end("things")));
    HttpServer server = eurekaServices(things.url());
    String url = "http://127.0.0.1:" + server.actualPort();
    gw = gateway(url, "1s");
    gw.createEurekaTenant("eur");

    Await.until(
        () ->
            gw.request()
                .get("/_/proxy/tenants/eur/modules")
                .then()
                .extract()
                .asString()
                .contains("mod-things-1.0.0"),
        "mod-things enabled for eur from the entitlements");

    gw.request()
        .get("/_/discovery/modules/mod-things-1.0.0")
        .then()
        .statusCode(200)
        .body("[0].url", org.hamcrest.Matchers.equalTo(things.url()));
    assertThat(things.drain()).as("no _tenant call: mgr-tenant-entitlements made it").isEmpty();
    assertThat(asked)
        .contains(
            "GET /entitlements/eur/applications?limit=500",
            "GET /applications/app-things-1.0.0/discovery?limit=500");
    things.close();
    modules.close().await();
  }

  /**
   * Issue 46: a tenant posted after the node started is read at once; it waited for {@code
   * eureka.entitlements-refresh} (here a day) or an event.
   */
  @Test
  void tenantCreatedAfterStart_readAtOnce_routesWithoutWaitingForTheRefresh() {
    Vertx modules = Vertx.vertx();
    things =
        TestModule.start(
            modules, router -> router.route().handler(ctx -> ctx.response().end("things")));
    HttpServer server = eurekaServices(things.url());
    gw = gateway("http://127.0.0.1:" + server.actualPort(), "1d");
    gw.createEurekaTenant("eur");

    Await.until(
        () -> gw.tenant("eur").get("/things").statusCode() == 200,
        "eur routes GET /things (no permissions required: no Keycloak needed)");
    assertThat(things.drain()).as("one call: the client's GET /things").hasSize(1);

    gw.request().delete("/_/proxy/tenants/eur").then().statusCode(204);
    gw.createEurekaTenant("eur");

    Await.until(
        () -> gw.tenant("eur").get("/things").statusCode() == 200,
        "eur, deleted and posted again, read again");
    things.close();
    modules.close().await();
  }
}
