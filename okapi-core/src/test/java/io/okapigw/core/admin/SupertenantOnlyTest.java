package io.okapigw.core.admin;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.UnsignedJwt;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator's admin calls answer only users of the supertenant (issue 42: diku_admin, having
 * given itself {@code okapi.all}, read the operator's {@code /_/env}, deployed a process and
 * created tenants). Here the auth filter grants every token everything, as to a holder of {@code
 * okapi.all}, and the okapi module is enabled for diku, as FOLIO installs it: a diku user still
 * gets 403 naming the rule, and nothing changes; its own tenant's calls and the reads every tenant
 * may make go on.
 */
class SupertenantOnlyTest {

  private static final String AUTH = "mod-auth-1.0.0";
  private static final String SUPER = UnsignedJwt.of("supertenant", "super_admin");
  private static final String DIKU = UnsignedJwt.of("diku", "diku_admin");

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();

  @BeforeEach
  void start() {
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
                                .putHeader(
                                    "X-Okapi-Module-Tokens",
                                    new JsonObject()
                                        .put("_", ctx.request().getHeader("X-Okapi-Token"))
                                        .encode())
                                .end()));
    gw.createTenant("diku");
    gw.createTenant("other");
    String okapi =
        gw.request()
            .get("/_/proxy/tenants/supertenant/modules")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getString("find { it.id.startsWith('okapi-') }.id");
    gw.enable("diku", okapi);
    gw.install("diku", authModule(AUTH), auth.url());
    gw.enable("supertenant", AUTH);
  }

  private RequestSpecification as(String token) {
    return gw.request().header("X-Okapi-Token", token);
  }

  private static final String SECRET_ENV = "{\"name\":\"DB_PASSWORD\",\"value\":\"s3cret\"}";

  @Test
  void dikuHolderOfEverything_readsOrSetsEnv_403NamingTheRule_envUnchanged() {
    as(SUPER).body(SECRET_ENV).post("/_/env").then().statusCode(201);

    as(DIKU)
        .get("/_/env")
        .then()
        .statusCode(403)
        .body(
            equalTo(
                "GET /_/env is the operator's (it reads or changes the environment deployed"
                    + " modules get): only users of the supertenant may call it, whatever"
                    + " permissions a user of tenant diku holds"))
        .body(not(containsString("s3cret")));
    as(DIKU).get("/_/env/DB_PASSWORD").then().statusCode(403);
    as(DIKU)
        .body("{\"name\":\"DB_PASSWORD\",\"value\":\"x\"}")
        .post("/_/env")
        .then()
        .statusCode(403);
    as(DIKU).delete("/_/env/DB_PASSWORD").then().statusCode(403);
    // a tenant header naming diku is the same request
    gw.tenant("diku").header("X-Okapi-Token", DIKU).get("/_/env").then().statusCode(403);

    as(SUPER).get("/_/env/DB_PASSWORD").then().statusCode(200).body("value", equalTo("s3cret"));
  }

  @Test
  void dikuHolderOfEverything_deploysAProcess_403_nothingDeployed() {
    as(DIKU)
        .body(
            new JsonObject()
                .put("srvcId", "mod-x-1.0.0")
                .put("nodeId", "localhost")
                .put(
                    "descriptor",
                    new JsonObject()
                        .put("exec", "touch /tmp/issue42-%p")
                        .put("cmdlineStart", "touch /tmp/issue42-start"))
                .encode())
        .post("/_/deployment/modules")
        .then()
        .statusCode(403)
        .body(containsString("it runs or stops processes on the gateway's hosts"));
    as(DIKU).get("/_/deployment/modules").then().statusCode(403);
    as(SUPER).get("/_/deployment/modules").then().statusCode(200).body("size()", equalTo(0));
  }

  @Test
  void dikuHolderOfEverything_createsChangesOrDeletesTenants_403_tenantsUnchanged() {
    String before = as(SUPER).get("/_/proxy/tenants").asString();

    as(DIKU).body("{\"id\":\"intruder\"}").post("/_/proxy/tenants").then().statusCode(403);
    as(DIKU)
        .body("{\"id\":\"other\",\"name\":\"taken\"}")
        .put("/_/proxy/tenants/other")
        .then()
        .statusCode(403);
    as(DIKU).delete("/_/proxy/tenants/other").then().statusCode(403);
    as(DIKU).delete("/_/proxy/tenants/diku").then().statusCode(403);
    as(DIKU)
        .body("[{\"id\":\"" + AUTH + "\",\"action\":\"enable\"}]")
        .post("/_/proxy/tenants/other/install")
        .then()
        .statusCode(403)
        .body(containsString("it acts on another tenant than diku"));
    as(DIKU).get("/_/proxy/tenants/other/modules").then().statusCode(403);

    assertThat(as(SUPER).get("/_/proxy/tenants").asString()).isEqualTo(before);
    as(SUPER)
        .get("/_/proxy/tenants/other/modules")
        .then()
        .statusCode(200)
        .body("size()", equalTo(0));
  }

  @Test
  void dikuHolderOfEverything_changesDiscoveryRegistryPullOrAuthCache_403() {
    String discovery = as(SUPER).get("/_/discovery/modules").asString();
    String modules = as(SUPER).get("/_/proxy/modules").asString();

    List<Response> refused =
        List.of(
            as(DIKU)
                .body(GatewayFixture.instance(AUTH, "evil", "http://127.0.0.1:9").encode())
                .post("/_/discovery/modules"),
            as(DIKU).delete("/_/discovery/modules/" + AUTH),
            as(DIKU).delete("/_/discovery/modules"),
            as(DIKU).body("{\"urls\":[\"http://127.0.0.1:9\"]}").post("/_/proxy/pull/modules"),
            as(DIKU).body("{\"id\":\"mod-evil-1.0.0\"}").post("/_/proxy/modules"),
            as(DIKU).delete("/_/proxy/modules/" + AUTH),
            as(DIKU).body("[]").post("/_/proxy/import/modules"),
            as(DIKU).post("/_/proxy/cleanup/modules"),
            as(DIKU).body("{}").post("/_/proxy/auth-cache/invalidate"),
            as(DIKU).body("[]").post("/_/proxy/tenants/diku/install?deploy=true"));
    refused.forEach(r -> assertThat(r.statusCode()).as(r.asString()).isEqualTo(403));

    assertThat(as(SUPER).get("/_/discovery/modules").asString()).isEqualTo(discovery);
    assertThat(as(SUPER).get("/_/proxy/modules").asString()).isEqualTo(modules);
  }

  @Test
  void refusedCallWithABody_bodyDropped_connectionServesTheNextRequest() throws Exception {
    String body = SECRET_ENV + " ".repeat(20_000);
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      RawClient.Response refused =
          client
              .send(
                  "POST /_/env HTTP/1.1\r\nHost: x\r\nX-Okapi-Token: "
                      + DIKU
                      + "\r\nContent-Length: "
                      + body.length()
                      + "\r\n\r\n"
                      + body)
              .response();
      assertThat(refused.status()).isEqualTo(403);
      RawClient.Response next =
          client
              .send("GET /_/version HTTP/1.1\r\nHost: x\r\nX-Okapi-Token: " + DIKU + "\r\n\r\n")
              .response();
      assertThat(next.status()).isEqualTo(200);
    }
    as(SUPER).get("/_/env").then().statusCode(200).body("size()", equalTo(0));
  }

  @Test
  void dikuUser_ownTenantAndSharedReads_stillAnswered() {
    as(DIKU).get("/_/proxy/tenants/diku/modules").then().statusCode(200);
    as(DIKU).get("/_/proxy/tenants/diku").then().statusCode(200);
    as(DIKU).get("/_/proxy/tenants").then().statusCode(200);
    as(DIKU).get("/_/proxy/modules").then().statusCode(200);
    as(DIKU).get("/_/discovery/modules").then().statusCode(200);
    as(DIKU).get("/_/version").then().statusCode(200);
    as(DIKU).body("[]").post("/_/proxy/tenants/diku/install").then().statusCode(200);
  }

  @Test
  void superAdmin_operatorCalls_answered() {
    as(SUPER).body("{\"name\":\"A\",\"value\":\"b\"}").post("/_/env").then().statusCode(201);
    as(SUPER).body("{\"id\":\"new\"}").post("/_/proxy/tenants").then().statusCode(201);
    as(SUPER).delete("/_/proxy/tenants/new").then().statusCode(204);
    as(SUPER).get("/_/proxy/tenants/diku/modules").then().statusCode(200);
  }
}
