package io.okapigw.core.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TenantApiModule;
import io.okapigw.core.testing.TenantApiModule.Mode;
import io.restassured.response.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /_/proxy/tenants/{t}/install} and {@code /upgrade} on small descriptor graphs, in Okapi
 * 6.1.5's shapes: plans, what the modules are told and in which order, simulate, a failed {@code
 * _tenant} call stopping the plan, ignoreErrors, async jobs, and disable all. Every module provides
 * {@code _tenant} 2.0 on a server of its own whose answers the test chooses.
 */
class InstallApiTest {

  private static final String INSTALL = "/_/proxy/tenants/diku/install";

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private final Map<String, TenantApiModule> servers = new HashMap<>();
  private final Queue<String> calls = new ConcurrentLinkedQueue<>();

  @BeforeEach
  void start() {
    gw.createTenant("diku");
  }

  /**
   * Registers and deploys a module providing {@code _tenant} 2.0 and {@code provides} (an interface
   * {@code id:version}, or null), requiring {@code requires} ({@code id:version}s).
   */
  private TenantApiModule module(String id, String provides, String... requires) {
    JsonObject descriptor = TenantApiModule.descriptor(id, "2.0", null, null);
    if (provides != null) {
      String[] p = provides.split(":");
      descriptor
          .getJsonArray("provides")
          .add(
              new JsonObject()
                  .put("id", p[0])
                  .put("version", p[1])
                  .put("handlers", new JsonArray()));
    }
    for (String r : requires) {
      String[] req = r.split(":");
      descriptor
          .getJsonArray("requires")
          .add(new JsonObject().put("id", req[0]).put("version", req[1]));
    }
    gw.addModule(descriptor);
    TenantApiModule server = TenantApiModule.start(gw.vertx(), id, calls);
    servers.put(id, server);
    gw.deploy(id, server.url());
    return server;
  }

  /**
   * @return every module's calls since the last look, as {@code "module: call"}, in order
   */
  private List<String> calls() {
    List<String> all = new ArrayList<>();
    String call;
    while ((call = calls.poll()) != null) {
      all.add(call);
    }
    return all;
  }

  private Response install(String query, String body) {
    return gw.request().body(body).post(INSTALL + query);
  }

  private static String enable(String... ids) {
    JsonArray array = new JsonArray();
    for (String id : ids) {
      array.add(new JsonObject().put("id", id).put("action", "enable"));
    }
    return array.encode();
  }

  /** The tenant's modules, listed in module id order (as Okapi lists them). */
  private List<String> enabled() {
    return gw.request()
        .get("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getList("id");
  }

  private static JsonArray json(Response response, int status) {
    return new JsonArray(response.then().statusCode(status).extract().asString());
  }

  @Test
  void install_productOnly_newestVersionAndItsProviderPulledIn_inDependencyOrder() {
    module("mod-users-1.0.0", "users:1.0");
    module("mod-users-1.1.0", "users:1.1");
    module("mod-circ-1.0.0", "circ:1.0", "users:1.0");
    JsonArray plan = json(install("", enable("mod-circ")), 200);
    assertThat(plan)
        .isEqualTo(
            new JsonArray(
                "[{\"id\":\"mod-users-1.1.0\",\"action\":\"enable\"},"
                    + "{\"id\":\"mod-circ-1.0.0\",\"action\":\"enable\"}]"));
    assertThat(enabled()).containsExactly("mod-circ-1.0.0", "mod-users-1.1.0");
    assertThat(calls())
        .containsExactly(
            "mod-users-1.1.0: POST /_/tenant {\"module_to\":\"mod-users-1.1.0\",\"purge\":false}",
            "mod-circ-1.0.0: POST /_/tenant {\"module_to\":\"mod-circ-1.0.0\",\"purge\":false}");
  }

  @Test
  void install_simulate_answersThePlan_callsNoModule_changesNothing_noJob() {
    module("mod-users-1.0.0", "users:1.0");
    module("mod-circ-1.0.0", "circ:1.0", "users:1.0");
    JsonArray plan = json(install("?simulate=true", enable("mod-circ-1.0.0")), 200);
    assertThat(plan).hasSize(2);
    assertThat(enabled()).isEmpty();
    assertThat(calls()).isEmpty();
    gw.request().get(INSTALL).then().statusCode(200).body("size()", equalTo(0));
  }

  @Test
  void upgrade_newerVersions_upgradedInDependencyOrder_withModuleFrom() {
    module("mod-users-1.0.0", "users:1.0");
    module("mod-circ-1.0.0", "circ:1.0", "users:1.0");
    install("", enable("mod-circ-1.0.0")).then().statusCode(200);
    module("mod-users-2.0.0", "users:2.0");
    module("mod-circ-2.0.0", "circ:2.0", "users:2.0");
    calls();
    JsonArray plan = json(gw.request().post("/_/proxy/tenants/diku/upgrade"), 200);
    assertThat(plan)
        .isEqualTo(
            new JsonArray(
                "[{\"id\":\"mod-users-2.0.0\",\"from\":"
                    + "\"mod-users-1.0.0\",\"action\":\"enable\"},{\"id\":\"mod-circ-2.0.0\",\"from\":"
                    + "\"mod-circ-1.0.0\",\"action\":\"enable\"}]"));
    assertThat(enabled()).containsExactly("mod-circ-2.0.0", "mod-users-2.0.0");
    assertThat(calls())
        .containsExactly(
            "mod-users-2.0.0: POST /_/tenant {\"module_to\":\"mod-users-2.0.0\","
                + "\"module_from\":\"mod-users-1.0.0\",\"purge\":false}",
            "mod-circ-2.0.0: POST /_/tenant {\"module_to\":\"mod-circ-2.0.0\","
                + "\"module_from\":\"mod-circ-1.0.0\",\"purge\":false}");
  }

  @Test
  void install_unmetOrClashing_400WithOkapisMessage_nothingChanged() {
    module("mod-users-1.0.0", "users:1.0");
    module("mod-users2-1.0.0", "users:1.0");
    gw.request()
        .body(
            "{\"id\":\"mod-nothere-1.0.0\",\"requires\":[{\"id\":\"nothere\","
                + "\"version\":\"1.0\"}]}")
        .post("/_/proxy/modules?check=false")
        .then()
        .statusCode(201);
    install("", enable("mod-users-1.0.0", "mod-users2-1.0.0"))
        .then()
        .statusCode(400)
        .body(containsString("Multiple modules mod-users"))
        .body(containsString("provide interface users"));
    install("", enable("mod-nothere-1.0.0"))
        .then()
        .statusCode(400)
        .body(equalTo("interface nothere required by module mod-nothere-1.0.0 not found"));
    install("", enable("mod-none-1.0.0"))
        .then()
        .statusCode(400)
        .body(equalTo("Module mod-none-1.0.0 not found"));
    install("", "[{\"id\":\"mod-users-1.0.0\"}]")
        .then()
        .statusCode(400)
        .body(equalTo("Missing action for id mod-users-1.0.0"));
    install("", "{}").then().statusCode(400).body(containsString("JSON array"));
    gw.request()
        .body(enable("mod-users-1.0.0"))
        .post("/_/proxy/tenants/nosuch/install")
        .then()
        .statusCode(404);
    assertThat(enabled()).isEmpty();
    assertThat(calls()).isEmpty();
  }

  @Test
  void install_tenantCallFails_planStops_failedAndLaterModulesNotEnabled_jobTellsWhere() {
    module("mod-users-1.0.0", "users:1.0");
    module("mod-circ-1.0.0", "circ:1.0", "users:1.0").mode(Mode.REFUSE);
    module("mod-ui-1.0.0", "ui:1.0", "circ:1.0");
    install("", enable("mod-ui-1.0.0"))
        .then()
        .statusCode(400)
        .body(containsString("mod-circ-1.0.0"))
        .body(containsString("no schema for you"));
    assertThat(enabled()).containsExactly("mod-users-1.0.0");
    assertThat(calls())
        .extracting(c -> c.substring(0, c.indexOf(':')))
        .containsExactly("mod-users-1.0.0", "mod-circ-1.0.0");
    JsonArray jobs = json(gw.request().get(INSTALL), 200);
    assertThat(jobs).hasSize(1);
    JsonObject job = jobs.getJsonObject(0);
    assertThat(job.getBoolean("complete")).isTrue();
    assertThat(job.getString("endDate")).isNotNull();
    JsonArray modules = job.getJsonArray("modules");
    assertThat(modules.getJsonObject(0).getString("stage")).isEqualTo("done");
    assertThat(modules.getJsonObject(1).getString("stage")).isEqualTo("invoke");
    assertThat(modules.getJsonObject(1).getString("message")).contains("no schema for you");
    assertThat(modules.getJsonObject(2).getString("stage")).isEqualTo("pending");
  }

  @Test
  void install_firstModuleFails_tenantAsItWas() {
    module("mod-users-1.0.0", "users:1.0").mode(Mode.JOB_FAILS);
    module("mod-circ-1.0.0", "circ:1.0", "users:1.0");
    install("", enable("mod-circ-1.0.0"))
        .then()
        .statusCode(400)
        .body(containsString("Tenant operation failed for module mod-users-1.0.0"));
    assertThat(enabled()).isEmpty();
    assertThat(calls()).noneMatch(c -> c.startsWith("mod-circ"));
  }

  @Test
  void install_ignoreErrors_failedModuleLeftOut_othersEnabled_messageInAnswer() {
    module("mod-a-1.0.0", "a:1.0").mode(Mode.REFUSE);
    module("mod-b-1.0.0", "b:1.0");
    module("mod-c-1.0.0", "c:1.0", "a:1.0");
    JsonArray answer =
        json(
            install("?ignoreErrors=true", enable("mod-a-1.0.0", "mod-b-1.0.0", "mod-c-1.0.0")),
            200);
    assertThat(enabled()).containsExactly("mod-b-1.0.0");
    assertThat(answer.getJsonObject(0).getString("message")).contains("no schema for you");
    assertThat(answer.getJsonObject(1).containsKey("message")).isFalse();
    assertThat(answer.getJsonObject(2).getString("message")).startsWith("not run");
  }

  @Test
  void install_async_201WithLocation_jobRunsInBackground_deletableOnceComplete() {
    TenantApiModule users = module("mod-users-1.0.0", "users:1.0").mode(Mode.HOLD);
    Response started = install("?async=true", enable("mod-users-1.0.0"));
    started.then().statusCode(201);
    String location = started.header("Location");
    assertThat(location).startsWith(INSTALL + "/");
    assertThat(json(started, 201)).isEqualTo(new JsonArray(enable("mod-users-1.0.0")));
    JsonObject running = job(location);
    for (int i = 0; i < 200 && !"invoke".equals(firstStage(running)); i++) {
      running = job(location); // until the job holds the tenant lock and calls the module
    }
    assertThat(firstStage(running)).isEqualTo("invoke");
    assertThat(running.getBoolean("complete")).isFalse();
    gw.request()
        .delete(location)
        .then()
        .statusCode(400)
        .body(containsString("Cannot delete non-completed job"));
    users.release();
    // a synchronous install waits for the tenant's running job: once it answers, the job is done
    install("", "[]").then().statusCode(200);
    JsonObject done = job(location);
    assertThat(done.getBoolean("complete")).isTrue();
    assertThat(done.getJsonArray("modules").getJsonObject(0).getString("stage")).isEqualTo("done");
    assertThat(enabled()).containsExactly("mod-users-1.0.0");
    gw.request().delete(INSTALL).then().statusCode(204);
    gw.request().get(location).then().statusCode(404);
    gw.request().get(INSTALL).then().statusCode(200).body("size()", equalTo(0));
  }

  private JsonObject job(String location) {
    return new JsonObject(gw.request().get(location).then().statusCode(200).extract().asString());
  }

  private static String firstStage(JsonObject job) {
    return job.getJsonArray("modules").getJsonObject(0).getString("stage");
  }

  @Test
  void disableAll_everyModuleTold_dependentsFirst_purgeAsked() {
    module("mod-users-1.0.0", "users:1.0");
    module("mod-circ-1.0.0", "circ:1.0", "users:1.0");
    install("", enable("mod-circ-1.0.0")).then().statusCode(200);
    calls();
    gw.request().delete("/_/proxy/tenants/diku/modules?purge=true").then().statusCode(204);
    assertThat(enabled()).isEmpty();
    assertThat(calls())
        .containsExactly(
            "mod-circ-1.0.0: POST /_/tenant {\"module_from\":\"mod-circ-1.0.0\",\"purge\":true}",
            "mod-users-1.0.0: POST /_/tenant {\"module_from\":\"mod-users-1.0.0\",\"purge\":true}");
  }

  @Test
  void install_disableAction_dependentsDisabledToo() {
    module("mod-users-1.0.0", "users:1.0");
    module("mod-circ-1.0.0", "circ:1.0", "users:1.0");
    install("", enable("mod-circ-1.0.0")).then().statusCode(200);
    JsonArray plan = json(install("", "[{\"id\":\"mod-users\",\"action\":\"disable\"}]"), 200);
    assertThat(plan)
        .isEqualTo(
            new JsonArray(
                "[{\"id\":\"mod-circ-1.0.0\",\"action\":\"disable\"},"
                    + "{\"id\":\"mod-users-1.0.0\",\"action\":\"disable\"}]"));
    assertThat(enabled()).isEmpty();
  }
}
