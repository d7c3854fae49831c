package io.okapigw.core.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.testing.GatewayFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real mod-circulation descriptor (FOLIO, Apache-2.0) registers as-is. */
class FolioDescriptorTest {

  private static GatewayFixture gw;
  private static String descriptor;

  @BeforeAll
  static void start() throws IOException {
    gw = new GatewayFixture();
    // a verbatim copy of ../shared/folio/mod-circulation.ModuleDescriptor-template.json
    descriptor = Files.readString(Path.of("src", "test", "resources", "folio",
            "mod-circulation.ModuleDescriptor-template.json"))
        .replace("${artifactId}-${version}", "mod-circulation-24.0.0");
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  @Test
  void circulationDescriptor_registersAndEnableListsAll41MissingInterfaces() {
    gw.createTenant("diku");
    gw.request().body(descriptor).post("/_/proxy/modules").then().statusCode(201);
    gw.request().get("/_/proxy/modules/mod-circulation-24.0.0").then().statusCode(200)
        .body("provides.size()", equalTo(21))
        .body("launchDescriptor.dockerImage", equalTo("${artifactId}:${version}"));
    String message = gw.request().body("{\"id\":\"mod-circulation-24.0.0\"}")
        .post("/_/proxy/tenants/diku/modules").then().statusCode(400).extract().asString();
    assertThat(message).contains("41 required interface(s) missing")
        .contains("loan-storage 7.3", "users 14.2 15.0 16.0", "locale 1.0",
            "item-storage 8.7 9.0 10.0 11.0");
    gw.request().get("/_/proxy/tenants/diku/modules").then().body("size()", equalTo(0));
  }
}
