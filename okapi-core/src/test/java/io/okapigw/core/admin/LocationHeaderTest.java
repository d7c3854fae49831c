package io.okapigw.core.admin;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code Location} of what the admin API creates, its ids encoded as Okapi 6.1.5 encodes them
 * (Java's {@code URLEncoder}: {@code +} as {@code %2B}, a space as {@code +}, {@code /} as {@code
 * %2F}; checked side by side), so that following it reads the resource back.
 */
class LocationHeaderTest {

  /** A semantic version with build metadata: the {@code +} FOLIO snapshot builds carry. */
  private static final String PLUS = "mod-plus-1.0.0+build.7";

  private static final String PLUS_ENCODED = "mod-plus-1.0.0%2Bbuild.7";

  private static GatewayFixture gw;

  @BeforeAll
  static void start() {
    gw = new GatewayFixture();
    gw.createTenant("diku");
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  @Test
  void module_plusEncoded_andTheLocationReadsItBack() {
    String location =
        gw.request()
            .body(module(PLUS, "plus", handler("GET", "/plus")).encode())
            .post("/_/proxy/modules")
            .then()
            .statusCode(201)
            .header("Location", "/_/proxy/modules/" + PLUS_ENCODED)
            .extract()
            .header("Location");
    gw.request()
        .urlEncodingEnabled(false)
        .get(location)
        .then()
        .statusCode(200)
        .body("id", equalTo(PLUS));

    String enabled =
        gw.request()
            .body(new JsonObject().put("id", PLUS).encode())
            .post("/_/proxy/tenants/diku/modules")
            .then()
            .statusCode(201)
            .header("Location", "/_/proxy/tenants/diku/modules/" + PLUS_ENCODED)
            .extract()
            .header("Location");
    gw.request()
        .urlEncodingEnabled(false)
        .get(enabled)
        .then()
        .statusCode(200)
        .body("id", equalTo(PLUS));
  }

  @Test
  void discoveryInstance_srvcIdAndInstIdEncoded_spaceAsPlus() {
    gw.request()
        .body(
            new JsonObject()
                .put("srvcId", "mod-enc-1.0.0+b")
                .put("instId", "inst 1+a:b")
                .put("url", "http://127.0.0.1:1")
                .encode())
        .post("/_/discovery/modules")
        .then()
        .statusCode(201)
        .header("Location", "/_/discovery/modules/mod-enc-1.0.0%2Bb/inst+1%2Ba%3Ab");
    gw.request()
        .urlEncodingEnabled(false)
        .get("/_/discovery/modules/mod-enc-1.0.0%2Bb/inst%201%2Ba%3Ab")
        .then()
        .statusCode(200)
        .body("instId", equalTo("inst 1+a:b"));
  }
}
