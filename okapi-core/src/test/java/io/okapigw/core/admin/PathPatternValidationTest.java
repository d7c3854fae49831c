package io.okapigw.core.admin;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.hamcrest.Matchers.containsString;

import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A malformed {@code pathPattern} is refused at registration with Okapi 6.1.5's rules (its {@code
 * RoutingEntry.setPathPattern}), instead of being matched literally.
 */
class PathPatternValidationTest {

  private static GatewayFixture gw;

  @BeforeAll
  static void start() {
    gw = new GatewayFixture();
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "/x/{id            | missing } for the { at index 3",
        "/x/{a/b}          | / inside {}",
        "/x/{a.b}          | invalid character . inside {}",
        "/x/{a{b}}         | invalid character { inside {}",
        "/x/a}             | invalid character }",
        "'/x/a b'          | invalid character ' '",
        "/x/a.json         | invalid character .",
        "/x/%41            | invalid character %",
        "/x?q=1            | invalid character ?",
        "/x/(a)            | invalid character (",
        "/x;a              | invalid character ;",
      })
  void postModule_malformedHandlerPattern_400NamingProblemAndNotRegistered(
      String pattern, String problem) {
    String id = "mod-badx" + Integer.toHexString(pattern.hashCode()) + "-1.0.0";
    gw.request()
        .body(module(id, "bad", handler("GET", pattern)).encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("handlers[0]: pathPattern " + pattern))
        .body(containsString(problem));
    gw.request().get("/_/proxy/modules/" + id).then().statusCode(404);
  }

  @Test
  void postModule_malformedFilterPattern_400NamingFilter() {
    JsonObject descriptor =
        new JsonObject()
            .put("id", "mod-filter-1.0.0")
            .put(
                "filters",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("methods", new JsonArray().add("*"))
                            .put("pathPattern", "/{all")
                            .put("phase", "pre")));
    gw.request()
        .body(descriptor.encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("filters[0]: pathPattern /{all: missing }"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/x",
        "/x/{id}",
        "/x/{id}/y",
        "/x/*",
        "/x/{a}/{b}*",
        "/*",
        "/",
        "/_/proxy/tenants/{tenant_id}/modules",
        "/x/{}",
        "/a-b_c~d/{id}",
        "/x*/y"
      })
  void postModule_wellFormedPattern_201(String pattern) {
    String id = "mod-okx" + Integer.toHexString(pattern.hashCode()) + "-1.0.0";
    gw.request()
        .body(module(id, "ok", handler("GET", pattern)).encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(201);
  }

  @Test
  void postModule_legacyPath_notCheckedAsOkapiDoesNot() {
    JsonObject entry =
        new JsonObject()
            .put("methods", new JsonArray().add("GET"))
            .put("path", "/legacy.v1")
            .put("permissionsRequired", new JsonArray());
    gw.request()
        .body(module("mod-legacy-1.0.0", "legacy", entry).encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(201);
  }
}
