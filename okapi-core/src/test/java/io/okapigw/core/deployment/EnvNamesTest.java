package io.okapigw.core.deployment;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code /_/env} takes only what can be put in a process's environment: a name as POSIX names
 * environment variables ({@code [A-Za-z_][A-Za-z0-9_]*}), a value without NUL. Okapi 6.1.5 stores
 * any name (its {@code EnvManager} checks only that name and value are there); a name with {@code
 * =} or NUL then fails every deployment after it.
 */
class EnvNamesTest {

  private final GatewayFixture gw = new GatewayFixture();

  @AfterEach
  void stop() {
    gw.close();
  }

  private void postRefused(String name, String value, String problem) {
    gw.request()
        .contentType("application/json; charset=UTF-8")
        .body(new JsonObject().put("name", name).put("value", value).encode())
        .post("/_/env")
        .then()
        .statusCode(400)
        .body(containsString(problem));
  }

  private void nothingStored() {
    gw.request().get("/_/env").then().statusCode(200).body("size()", equalTo(0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"BAD=NAME", "BAD\u0000NAME", "", "1ST", "A-B", "A B", "DB.HOST", "É"})
  void post_nameNotAnEnvironmentName_400NamingIt_nothingStored(String name) {
    postRefused(name, "v", "env name");
    nothingStored();
  }

  @Test
  void post_valueWithNul_400NamingIt_nothingStored() {
    postRefused("DB_HOST", "a\u0000b", "NUL");
    nothingStored();
  }

  @Test
  void post_environmentNames_stored() {
    for (String name : new String[] {"DB_HOST", "_X", "a1", "KAFKA_HOST_2"}) {
      gw.request()
          .body(new JsonObject().put("name", name).put("value", "x=y; \t\"z\"").encode())
          .post("/_/env")
          .then()
          .statusCode(201);
    }
    gw.request().get("/_/env").then().body("size()", equalTo(4));
    gw.request().get("/_/env/_X").then().statusCode(200).body("value", equalTo("x=y; \t\"z\""));
  }
}
