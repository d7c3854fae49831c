package io.okapigw.core.tenantinit;

import static io.okapigw.core.testing.TenantApiModule.descriptor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TenantApiModule;
import io.okapigw.core.testing.TenantApiModule.Mode;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code _tenant} calls of enable, upgrade and disable as Okapi 6.1.5 makes them: 1.0, 1.1 and
 * 1.2 synchronous, 2.0 with a job polled until complete and then deleted; a failed call, a failed
 * job or one that does not complete within {@code tenant.init-timeout} leaves the module as it was,
 * with a message naming it. The poll interval is set small, so a test never waits long; the timeout
 * is set far from the calls' latencies (a call slowed down by a busy machine must not time out),
 * except where a test waits for it to fire.
 */
class TenantInterfaceTest {

  private static final String TENANT_MODULES = "/_/proxy/tenants/diku/modules";

  private GatewayFixture gw;
  private TenantApiModule module;

  @BeforeEach
  void start() {
    gw =
        new GatewayFixture(
            GatewayOptions.defaults(0)
                .withTenantInit(
                    new TenantInitOptions(Duration.ofMinutes(1), Duration.ofMillis(2))));
    gw.createTenant("diku");
    module = TenantApiModule.start(gw.vertx());
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  private void register(String id, String tenantVersion) {
    gw.addModule(descriptor(id, tenantVersion, null, null));
    gw.deploy(id, module.url());
  }

  private List<String> enabled() {
    return gw.request()
        .get(TENANT_MODULES)
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getList("id");
  }

  private void post(String path, String id, int status) {
    gw.request().body(new JsonObject().put("id", id).encode()).post(path).then().statusCode(status);
  }

  @Test
  void version1_0_enablePostsModuleTo_upgradePostsBoth_disableCallsNothing_purgeDeletes() {
    register("mod-a-1.0.0", "1.0");
    register("mod-a-1.1.0", "1.0");
    post(TENANT_MODULES, "mod-a-1.0.0", 201);
    assertThat(module.take()).containsExactly("POST /_/tenant {\"module_to\":\"mod-a-1.0.0\"}");
    post(TENANT_MODULES + "/mod-a-1.0.0", "mod-a-1.1.0", 201);
    assertThat(module.take())
        .containsExactly(
            "POST /_/tenant {\"module_to\":\"mod-a-1.1.0\"," + "\"module_from\":\"mod-a-1.0.0\"}");
    assertThat(enabled()).containsExactly("mod-a-1.1.0");
    gw.request().delete(TENANT_MODULES + "/mod-a-1.1.0").then().statusCode(204);
    assertThat(module.take()).isEmpty();
    post(TENANT_MODULES, "mod-a-1.1.0", 201);
    module.take();
    gw.request().delete(TENANT_MODULES + "/mod-a-1.1.0?purge=true").then().statusCode(204);
    assertThat(module.take()).containsExactly("DELETE /_/tenant");
    assertThat(enabled()).isEmpty();
  }

  @Test
  void version1_1_disablePostsModuleFromToTheDisableHandler() {
    register("mod-a-1.0.0", "1.1");
    post(TENANT_MODULES, "mod-a-1.0.0", 201);
    module.take();
    gw.request().delete(TENANT_MODULES + "/mod-a-1.0.0").then().statusCode(204);
    assertThat(module.take())
        .containsExactly("POST /_/tenant/disable {\"module_from\":\"mod-a-1.0.0\"}");
  }

  @Test
  void version1_2_enableSendsTenantParameters() {
    register("mod-a-1.0.0", "1.2");
    gw.request()
        .queryParam("tenantParameters", "loadReference=true,loadSample")
        .body("{\"id\":\"mod-a-1.0.0\"}")
        .post(TENANT_MODULES)
        .then()
        .statusCode(201);
    assertThat(module.take())
        .containsExactly(
            "POST /_/tenant {\"module_to\":\"mod-a-1.0.0\","
                + "\"parameters\":[{\"key\":\"loadReference\",\"value\":\"true\"},"
                + "{\"key\":\"loadSample\"}]}");
  }

  @Test
  void version2_job_polledUntilComplete_thenDeleted_moduleEnabled() {
    register("mod-a-1.0.0", "2.0");
    module.mode(Mode.JOB);
    gw.request()
        .queryParam("tenantParameters", "loadReference=true")
        .body("{\"id\":\"mod-a-1.0.0\"}")
        .post(TENANT_MODULES)
        .then()
        .statusCode(201);
    assertThat(module.take())
        .containsExactly(
            "POST /_/tenant {\"module_to\":\"mod-a-1.0.0\",\"purge\":false,"
                + "\"parameters\":[{\"key\":\"loadReference\",\"value\":\"true\"}]}",
            "GET /_/tenant/job-1",
            "GET /_/tenant/job-1",
            "DELETE /_/tenant/job-1");
    assertThat(enabled()).containsExactly("mod-a-1.0.0");
  }

  @Test
  void version2_disableWithPurge_postsPurgeTrue() {
    register("mod-a-1.0.0", "2.0");
    post(TENANT_MODULES, "mod-a-1.0.0", 201);
    module.take();
    gw.request().delete(TENANT_MODULES + "/mod-a-1.0.0?purge=true").then().statusCode(204);
    assertThat(module.take())
        .containsExactly("POST /_/tenant {\"module_from\":\"mod-a-1.0.0\",\"purge\":true}");
    assertThat(enabled()).isEmpty();
  }

  @Test
  void version2_jobFails_400NamingModuleAndError_moduleNotEnabled() {
    register("mod-a-1.0.0", "2.0");
    module.mode(Mode.JOB_FAILS);
    gw.request()
        .body("{\"id\":\"mod-a-1.0.0\"}")
        .post(TENANT_MODULES)
        .then()
        .statusCode(400)
        .body(
            allOf(
                containsString("Tenant operation failed for module mod-a-1.0.0"),
                containsString("schema creation failed"),
                containsString("relation x exists")));
    assertThat(module.take()).endsWith("DELETE /_/tenant/job-1");
    assertThat(enabled()).isEmpty();
  }

  /**
   * The timeout runs on the gateway's scheduler, a fake one here: each poll moves it 20 s on, so
   * the third poll passes the 60 s timeout however slow the machine (with a real 400 ms timeout, a
   * busy machine's slow first call left no time for a second poll).
   */
  @Test
  void version2_jobNeverCompletes_504NamingModuleAndSetting_moduleNotEnabled() {
    gw.close();
    FakeScheduler scheduler = new FakeScheduler(Instant.parse("2026-01-01T00:00:00Z"));
    gw =
        new GatewayFixture(
            GatewayOptions.defaults(0)
                .withTenantInit(
                    new TenantInitOptions(Duration.ofSeconds(60), Duration.ofMillis(2))),
            scheduler);
    gw.createTenant("diku");
    module =
        TenantApiModule.start(gw.vertx()).onPoll(() -> scheduler.advance(Duration.ofSeconds(20)));
    register("mod-a-1.0.0", "2.0");
    module.mode(Mode.JOB_NEVER);
    gw.request()
        .body("{\"id\":\"mod-a-1.0.0\"}")
        .post(TENANT_MODULES)
        .then()
        .statusCode(504)
        .body(
            allOf(
                containsString("module mod-a-1.0.0 did not complete its tenant job"),
                containsString("within 60000 ms"),
                containsString(TenantInitOptions.TIMEOUT.key())));
    assertThat(module.polls()).isEqualTo(3);
    assertThat(enabled()).isEmpty();
  }

  @Test
  void refusedCall_400NamingModule_upgradeLeavesTheOldVersionEnabled() {
    register("mod-a-1.0.0", "2.0");
    register("mod-a-2.0.0", "2.0");
    post(TENANT_MODULES, "mod-a-1.0.0", 201);
    module.mode(Mode.REFUSE);
    gw.request()
        .body("{\"id\":\"mod-a-2.0.0\"}")
        .post(TENANT_MODULES + "/mod-a-1.0.0")
        .then()
        .statusCode(400)
        .body(allOf(containsString("mod-a-2.0.0"), containsString("no schema for you")));
    assertThat(enabled()).containsExactly("mod-a-1.0.0");
  }

  @Test
  void unreachableModule_failsNamingIt_moduleNotEnabled() {
    gw.addModule(descriptor("mod-a-1.0.0", "2.0", null, null));
    gw.deploy("mod-a-1.0.0", "http://127.0.0.1:1");
    gw.request()
        .body("{\"id\":\"mod-a-1.0.0\"}")
        .post(TENANT_MODULES)
        .then()
        .statusCode(502)
        .body(containsString("mod-a-1.0.0"));
    assertThat(enabled()).isEmpty();
  }

  /**
   * The module holds its answer until the gateway has closed another connection for being silent
   * {@code server.idle-timeout}, one opened after the call reached the module: by then the client's
   * connection and the call to the module have been silent longer than both idle timeouts, however
   * slow the machine. The timeouts are seconds, so the set-up's own calls never race them (with 300
   * ms, a set-up call on a busy machine got its connection closed: NoHttpResponseException).
   */
  @Test
  void tenantCallLongerThanServerIdleTimeout_clientStillGetsTheAnswer() {
    gw.close();
    gw =
        new GatewayFixture(
            GatewayOptions.from(
                Settings.of(Map.of("server.idle-timeout", "3s", "proxy.idle-timeout", "1s"))));
    gw.createTenant("diku");
    module = TenantApiModule.start(gw.vertx()).mode(Mode.HOLD);
    register("mod-a-1.0.0", "2.0");
    Future<Void> silence =
        module
            .holding()
            .compose(v -> gw.silentConnectionClosed())
            .onComplete(x -> module.release());
    gw.request().body("{\"id\":\"mod-a-1.0.0\"}").post(TENANT_MODULES).then().statusCode(201);
    assertThat(silence.succeeded())
        .as("an idle connection closed while the call was held")
        .isTrue();
    assertThat(enabled()).containsExactly("mod-a-1.0.0");
  }

  @Test
  void permissionsModuleToldFirst_thenTheTenantInterface_asOkapi() {
    gw.addModule(
        new JsonObject()
            .put("id", "mod-perms-1.0.0")
            .put(
                "provides",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("id", "_tenantPermissions")
                            .put("version", "2.0")
                            .put("interfaceType", "system")
                            .put(
                                "handlers",
                                new JsonArray()
                                    .add(
                                        new JsonObject()
                                            .put("methods", new JsonArray().add("POST"))
                                            .put("pathPattern", "/perms/_/tenantpermissions"))))));
    gw.deploy("mod-perms-1.0.0", module.url());
    post(TENANT_MODULES, "mod-perms-1.0.0", 201);
    module.take();
    register("mod-a-1.0.0", "2.0");
    post(TENANT_MODULES, "mod-a-1.0.0", 201);
    assertThat(module.take())
        .containsExactly(
            "POST /perms/_/tenantpermissions {\"moduleId\":\"mod-a-1.0.0\"}",
            "POST /_/tenant {\"module_to\":\"mod-a-1.0.0\",\"purge\":false}");
  }

  @Test
  void invokeFalse_enablesWithoutCall() {
    register("mod-a-1.0.0", "2.0");
    post(TENANT_MODULES + "?invoke=false", "mod-a-1.0.0", 201);
    assertThat(module.take()).isEmpty();
    gw.request()
        .get(TENANT_MODULES + "/mod-a-1.0.0")
        .then()
        .statusCode(200)
        .body("id", equalTo("mod-a-1.0.0"));
  }
}
