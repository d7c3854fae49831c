package io.okapigw.core.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TenantApiModule;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real mod-circulation descriptor (FOLIO, Apache-2.0) installed with one {@code /install} call
 * naming its product alone: each of its 41 required interfaces pulls in the module providing it,
 * all are enabled before it, and its {@code _tenant} 1.0 interface is called; or, with a provider
 * missing, the install is refused naming the interface. Its timers (every 2 minutes and more, at
 * multiples of their period since the epoch) run on a clock that stands still: on the wall clock
 * five of them fired during the install now and then, calls the test did not expect.
 */
class CirculationInstallTest {

  private static final String ID = "mod-circulation-24.0.0";
  private static final String REQUEST = "[{\"id\":\"mod-circulation\",\"action\":\"enable\"}]";

  @RegisterExtension
  final GatewayFixture gw =
      new GatewayFixture(
          GatewayOptions.defaults(0), new FakeScheduler(Instant.parse("2026-03-02T05:00:00Z")));

  private JsonObject circulation;
  private TenantApiModule instance;

  @BeforeEach
  void start() throws IOException {
    gw.createTenant("diku");
    instance = TenantApiModule.start(gw.vertx());
    // a verbatim copy of ../shared/folio/mod-circulation.ModuleDescriptor-template.json
    circulation =
        new JsonObject(
            Files.readString(
                    Path.of(
                        "src",
                        "test",
                        "resources",
                        "folio",
                        "mod-circulation.ModuleDescriptor-template.json"))
                .replace("${artifactId}-${version}", ID));
  }

  /** Registers one module per interface mod-circulation requires, except {@code skipped}. */
  private int registerProviders(String skipped) {
    JsonArray required = circulation.getJsonArray("requires");
    for (Object o : required) {
      JsonObject r = (JsonObject) o;
      if (!r.getString("id").equals(skipped)) {
        gw.addModule(
            new JsonObject()
                .put("id", "mod-" + r.getString("id") + "-1.0.0")
                .put(
                    "provides",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("id", r.getString("id"))
                                .put("version", r.getString("version").split(" ")[0])
                                .put("handlers", new JsonArray()))));
      }
    }
    return required.size();
  }

  @Test
  void install_productOnly_41ProvidersFirst_thenCirculation_itsTenantInterfaceCalled() {
    int providers = registerProviders(null);
    assertThat(providers).isEqualTo(41);
    gw.addModule(circulation);
    gw.deploy(ID, instance.url());
    JsonArray simulated =
        new JsonArray(
            gw.request()
                .body(REQUEST)
                .post("/_/proxy/tenants/diku/install?simulate=true")
                .then()
                .statusCode(200)
                .extract()
                .asString());
    assertThat(simulated).hasSize(42);
    assertThat(simulated.getJsonObject(41).getString("id")).isEqualTo(ID);
    assertThat(simulated).allMatch(e -> "enable".equals(((JsonObject) e).getString("action")));
    gw.request()
        .body(REQUEST)
        .post("/_/proxy/tenants/diku/install")
        .then()
        .statusCode(200)
        .body("size()", equalTo(42))
        .body("[41].id", equalTo(ID));
    List<String> enabled =
        gw.request()
            .get("/_/proxy/tenants/diku/modules")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getList("id");
    assertThat(enabled).hasSize(42).contains(ID).isSorted();
    assertThat(instance.take()).containsExactly("POST /_/tenant {\"module_to\":\"" + ID + "\"}");
  }

  @Test
  void install_aProviderMissing_400NamingTheInterface_nothingEnabled() {
    registerProviders("loan-storage");
    gw.request()
        .body(circulation.encode())
        .post("/_/proxy/modules?check=false")
        .then()
        .statusCode(201);
    gw.request()
        .body(REQUEST)
        .post("/_/proxy/tenants/diku/install")
        .then()
        .statusCode(400)
        .body(equalTo("interface loan-storage required by module " + ID + " not found"));
    gw.request().get("/_/proxy/tenants/diku/modules").then().body("size()", equalTo(0));
  }
}
