package io.okapigw.core.tenantinit;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.TestModule.Recorded;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code _tenantPermissions} calls as Okapi 6.1.5 makes them (bodies checked side by side): which
 * modules' sets are sent and in which order, Okapi's {@code SYS#} sets, the empty list on disable,
 * and the auth filter asked first when the tenant has one.
 */
class TenantPermissionsTest {

  private static final String ITEMS = "mod-items-1.0.0";
  private static final String SYS_SET = "SYS#" + ITEMS + "#/items/{id}#[GET, POST]";

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule perms;
  private final ConcurrentLinkedQueue<JsonObject> bodies = new ConcurrentLinkedQueue<>();
  private volatile int permsStatus = 201;

  @BeforeEach
  void start() {
    gw.createTenant("diku");
    perms =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .post("/perms/_/tenantpermissions")
                    .handler(
                        ctx ->
                            ctx.request()
                                .body()
                                .onSuccess(
                                    body -> {
                                      bodies.add(body.toJsonObject());
                                      ctx.response()
                                          .setStatusCode(permsStatus)
                                          .end(permsStatus == 201 ? "" : "no way");
                                    })));
    gw.addModule(itemsModule());
    gw.deploy(ITEMS, perms.url());
  }

  private static JsonObject itemsModule() {
    return module(
            ITEMS,
            "items",
            handler("GET", "/items/{id}", "items.get")
                .put("methods", new JsonArray().add("GET").add("POST"))
                .put("modulePermissions", new JsonArray().add("storage.read")))
        .put(
            "permissionSets",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("permissionName", "items.all")
                        .put("subPermissions", new JsonArray().add("items.get"))));
  }

  private static JsonObject permsModule(String version) {
    return new JsonObject()
        .put("id", "mod-perms-" + version)
        .put(
            "provides",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("id", "_tenantPermissions")
                        .put("version", version)
                        .put("interfaceType", "system")
                        .put(
                            "handlers",
                            new JsonArray().add(handler("POST", "/perms/_/tenantpermissions")))));
  }

  private void installPerms(String version) {
    gw.install("diku", permsModule(version), perms.url());
  }

  private List<JsonObject> taken() {
    List<JsonObject> all = new ArrayList<>(bodies);
    bodies.clear();
    return all;
  }

  @Test
  void enable_version20_ownSetsThenSysSetOfTheModulePermissions() {
    installPerms("2.0");
    taken();
    gw.enable("diku", ITEMS);
    List<JsonObject> sent = taken();
    assertThat(sent).hasSize(1);
    JsonObject body = sent.get(0);
    assertThat(body.getString("moduleId")).isEqualTo(ITEMS);
    JsonArray sets = body.getJsonArray("perms");
    assertThat(sets.getJsonObject(0).getString("permissionName")).isEqualTo("items.all");
    assertThat(sets.getJsonObject(1))
        .isEqualTo(
            new JsonObject()
                .put("permissionName", SYS_SET)
                .put("displayName", "System generated: " + SYS_SET)
                .put("description", "System generated permission set")
                .put("subPermissions", new JsonArray().add("storage.read"))
                .put("visible", false));
  }

  @Test
  void enablePermsModule_itselfFirstThenEveryEnabledModule() {
    gw.enable("diku", ITEMS);
    installPerms("2.0");
    List<JsonObject> sent = taken();
    assertThat(sent)
        .extracting(b -> b.getString("moduleId"))
        .containsExactly("mod-perms-2.0", ITEMS);
    assertThat(sent.get(0).containsKey("perms")).as("no sets: perms omitted, as Okapi").isFalse();
  }

  @Test
  void disable_version20_postsAnEmptyList() {
    installPerms("2.0");
    gw.enable("diku", ITEMS);
    taken();
    gw.request().delete("/_/proxy/tenants/diku/modules/" + ITEMS).then().statusCode(204);
    assertThat(taken())
        .containsExactly(new JsonObject().put("moduleId", ITEMS).put("perms", new JsonArray()));
  }

  @Test
  void version10_descriptorSetsOnly_andNothingOnDisable() {
    installPerms("1.0");
    gw.enable("diku", ITEMS);
    List<JsonObject> sent = taken();
    JsonObject body = sent.get(sent.size() - 1);
    assertThat(body.getJsonArray("perms"))
        .extracting(s -> ((JsonObject) s).getString("permissionName"))
        .containsExactly("items.all");
    gw.request().delete("/_/proxy/tenants/diku/modules/" + ITEMS).then().statusCode(204);
    assertThat(taken()).isEmpty();
  }

  @Test
  void refused_enableFails400AndModuleNotEnabled() {
    installPerms("2.0");
    permsStatus = 422;
    gw.request()
        .body(new JsonObject().put("id", ITEMS).encode())
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(400)
        .body(containsString("refused the permissions of " + ITEMS));
    gw.request().get("/_/proxy/tenants/diku/modules/" + ITEMS).then().statusCode(404);
  }

  @Test
  void withAuthModule_authFilterAskedFirst_callCarriesItsTokenAndPermissions() {
    TestModule auth =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx ->
                            ctx.response()
                                .setStatusCode(202)
                                .putHeader("X-Okapi-Token", "system-token")
                                .putHeader("X-Okapi-Permissions", "[\"perms.granted\"]")
                                .putHeader("X-Okapi-Module-Tokens", "{\"_\":\"default\"}")
                                .end()));
    gw.install("diku", authModule("mod-auth-1.0.0"), auth.url());
    installPerms("2.0");
    perms.take();
    taken();
    Recorded authCall = auth.take();
    assertThat(authCall.method()).isEqualTo("POST");
    assertThat(authCall.uri()).isEqualTo("/perms/_/tenantpermissions");
    assertThat(authCall.header("X-Okapi-Filter")).isEqualTo("auth");
    assertThat(authCall.header("X-Okapi-Module-Permissions")).isEqualTo("{}");
    assertThat(authCall.header("X-Okapi-Tenant")).isEqualTo("diku");
    assertThat(authCall.header("X-Okapi-Token")).isNull();
    gw.enable("diku", ITEMS);
    auth.take();
    Recorded call = perms.take();
    assertThat(call.header("X-Okapi-Token")).isEqualTo("system-token");
    assertThat(call.header("X-Okapi-Permissions")).isEqualTo("[\"perms.granted\"]");
    assertThat(call.header("X-Okapi-Tenant")).isEqualTo("diku");
  }
}
