package io.okapigw.folio;

import static io.restassured.RestAssured.given;

import io.okapigw.core.Gateway;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.module.CallCounts;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A real gateway in the test JVM plus every simulated module, registered and enabled for tenant
 * {@value #TENANT} through the gateway's admin API (which checks requires against provides).
 */
final class GatewayWithModules implements AutoCloseable {

  static final String TENANT = "diku";

  final Vertx vertx = Vertx.vertx();
  final Gateway gateway;
  final CirculationModules modules;

  GatewayWithModules(CirculationData.Options options, Duration callTimeout) {
    gateway = Gateway.start(vertx, GatewayOptions.defaults(0).withInstances(1)).await();
    modules = CirculationModules.start(vertx, options, callTimeout).await();
    modules.registerOn(gateway.okapiUrl(), TENANT).await();
  }

  /**
   * @return a request to the gateway for the tenant
   */
  RequestSpecification client() {
    return given()
        .baseUri(gateway.okapiUrl())
        .header("X-Okapi-Tenant", TENANT)
        .contentType("application/json");
  }

  Response checkOut(String itemBarcode, String userBarcode) {
    return client()
        .body(
            new JsonObject()
                .put("itemBarcode", itemBarcode)
                .put("userBarcode", userBarcode)
                .put("servicePointId", modules.data().servicePointId())
                .encode())
        .post("/circulation/check-out-by-barcode");
  }

  Response checkIn(String itemBarcode) {
    return client()
        .body(
            new JsonObject()
                .put("itemBarcode", itemBarcode)
                .put("servicePointId", modules.data().servicePointId())
                .encode())
        .post("/circulation/check-in-by-barcode");
  }

  /**
   * @return the requests every module served so far, by "module handler-key"
   */
  Map<String, Long> served() {
    Map<String, Long> all = new HashMap<>();
    for (ModuleDeployment module : modules.deployments()) {
      module.served().snapshot().forEach((key, n) -> all.put(module.id() + " " + key, n));
    }
    return all;
  }

  /**
   * @return the module-to-module requests all modules served so far
   */
  long servedFromModules() {
    return modules.deployments().stream()
        .map(ModuleDeployment::served)
        .mapToLong(CallCounts::moduleToModule)
        .sum();
  }

  /**
   * @return what changed between two {@link #served()} snapshots
   */
  static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> delta = new HashMap<>();
    after.forEach(
        (key, n) -> {
          long d = n - before.getOrDefault(key, 0L);
          if (d != 0) {
            delta.put(key, d);
          }
        });
    return delta;
  }

  @Override
  public void close() {
    vertx.close().await();
  }
}
