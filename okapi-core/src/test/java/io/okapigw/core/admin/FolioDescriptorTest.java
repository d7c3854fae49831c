package io.okapigw.core.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real mod-circulation descriptor (FOLIO, Apache-2.0) registers as-is once the modules
 * providing its 41 required interfaces are registered (Okapi 6.1.5 checks them on POST unless
 * {@code check=false}).
 */
class FolioDescriptorTest {

  private static final String ID = "mod-circulation-24.0.0";

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private String descriptor;

  @BeforeEach
  void start() throws IOException {
    // a verbatim copy of ../shared/folio/mod-circulation.ModuleDescriptor-template.json
    descriptor =
        Files.readString(
                Path.of(
                    "src",
                    "test",
                    "resources",
                    "folio",
                    "mod-circulation.ModuleDescriptor-template.json"))
            .replace("${artifactId}-${version}", ID);
  }

  /** One module providing every interface the descriptor requires, in its first version. */
  private JsonObject providers() {
    JsonArray provides = new JsonArray();
    new JsonObject(descriptor)
        .getJsonArray("requires")
        .forEach(
            o -> {
              JsonObject required = (JsonObject) o;
              provides.add(
                  new JsonObject()
                      .put("id", required.getString("id"))
                      .put("version", required.getString("version").split(" ")[0])
                      .put("handlers", new JsonArray()));
            });
    return new JsonObject()
        .put("id", "mod-providers-1.0.0")
        .put("requires", new JsonArray())
        .put("provides", provides);
  }

  @Test
  void circulationDescriptor_providersRegistered_registersAsIs() {
    gw.addModule(providers());
    gw.request().body(descriptor).post("/_/proxy/modules").then().statusCode(201);
    gw.request()
        .get("/_/proxy/modules/" + ID)
        .then()
        .statusCode(200)
        .body("provides.size()", equalTo(21))
        .body("launchDescriptor.dockerImage", equalTo("${artifactId}:${version}"));
  }

  @Test
  void circulationDescriptor_noProviders_400ListingAll41MissingInterfaces() {
    String message =
        gw.request()
            .body(descriptor)
            .post("/_/proxy/modules")
            .then()
            .statusCode(400)
            .extract()
            .asString();
    assertThat(message.lines())
        .hasSize(41)
        .allMatch(l -> l.startsWith("Missing dependency: " + ID + " requires "));
    assertThat(message)
        .contains("requires loan-storage: 7.3", "requires item-storage: 8.7 9.0 10.0 11.0");
    gw.request().get("/_/proxy/modules/" + ID).then().statusCode(404);
  }

  @Test
  void circulationDescriptor_checkFalse_registersAndEnableListsAll41MissingInterfaces() {
    gw.createTenant("diku");
    gw.request().body(descriptor).post("/_/proxy/modules?check=false").then().statusCode(201);
    String message =
        gw.request()
            .body("{\"id\":\"" + ID + "\"}")
            .post("/_/proxy/tenants/diku/modules")
            .then()
            .statusCode(400)
            .extract()
            .asString();
    assertThat(message)
        .contains("41 required interface(s) missing")
        .contains(
            "loan-storage 7.3",
            "users 14.2 15.0 16.0",
            "locale 1.0",
            "item-storage 8.7 9.0 10.0 11.0");
    gw.request().get("/_/proxy/tenants/diku/modules").then().body("size()", equalTo(0));
  }
}
