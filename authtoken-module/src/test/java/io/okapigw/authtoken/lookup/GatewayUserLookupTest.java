package io.okapigw.authtoken.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.TestModule;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --user-lookup gateway}: each decision with a user looks the user up in mod-users and its
 * permissions in mod-permissions through the gateway (a stand-in here that plays both), not in the
 * module's store.
 */
@ExtendWith(VertxExtension.class)
class GatewayUserLookupTest {
  private static final String PERM_USER_ID = "p-1";

  @TempDir Path dir;
  private TestModule module;
  private String gatewayUrl;
  private String aliceId;
  private String token;

  /** What the stand-in gateway answers; changed by tests. */
  private final Map<String, JsonObject> users = new ConcurrentHashMap<>();

  private volatile List<String> permissionNames = List.of("circ.checkin");
  private volatile int permissionsStatus = 200;

  /** Every lookup the stand-in got: path with query, tenant, request id, token. */
  private final List<Lookup> lookups = Collections.synchronizedList(new ArrayList<>());

  private record Lookup(String uri, String tenant, String requestId, String token) {}

  @BeforeEach
  void setUp(Vertx vertx) {
    gatewayUrl =
        "http://127.0.0.1:"
            + TestModule.await(
                    vertx.createHttpServer().requestHandler(this::standIn).listen(0, "127.0.0.1"))
                .actualPort();
    module =
        TestModule.deploy(
            vertx,
            TestModule.options(dir).withUserLookup(UserLookup.GATEWAY),
            MutableClock.ofNow());
    // the module's own store grants circ.checkout; mod-permissions says circ.checkin
    aliceId = module.createUser("alice", "secret", List.of("circ.checkout"));
    users.put(
        aliceId, new JsonObject().put("id", aliceId).put("username", "alice").put("active", true));
    token = module.token("alice", "secret");
  }

  @AfterEach
  void tearDown() {
    module.undeploy();
  }

  /** mod-users and mod-permissions behind a gateway. */
  private void standIn(HttpServerRequest req) {
    lookups.add(
        new Lookup(
            req.uri(),
            req.getHeader(OkapiHeaders.TENANT),
            req.getHeader(OkapiHeaders.REQUEST_ID),
            req.getHeader(OkapiHeaders.TOKEN)));
    String path = req.path();
    if (path.startsWith("/users/")) {
      JsonObject user = users.get(path.substring("/users/".length()));
      req.response()
          .setStatusCode(user == null ? 404 : 200)
          .end(user == null ? "User not found" : user.encode());
    } else if (path.equals("/perms/users")) {
      String userId = req.getParam("query").replace("userId==", "");
      JsonArray found =
          users.containsKey(userId)
              ? new JsonArray().add(new JsonObject().put("id", PERM_USER_ID).put("userId", userId))
              : new JsonArray();
      req.response()
          .end(
              new JsonObject()
                  .put("permissionUsers", found)
                  .put("totalRecords", found.size())
                  .encode());
    } else if (path.equals("/perms/users/" + PERM_USER_ID + "/permissions")) {
      req.response()
          .setStatusCode(permissionsStatus)
          .end(
              permissionsStatus != 200
                  ? "db down"
                  : new JsonObject()
                      .put("permissionNames", new JsonArray(permissionNames))
                      .put("totalRecords", permissionNames.size())
                      .encode());
    } else {
      req.response().setStatusCode(404).end();
    }
  }

  private Response filter(String token, String required, String okapiUrl) {
    var request =
        module
            .request(TestModule.TENANT)
            .header(OkapiHeaders.FILTER, "auth")
            .header(OkapiHeaders.REQUEST_ID, "req-7")
            .header(OkapiHeaders.TOKEN, token)
            .header(OkapiHeaders.PERMISSIONS_REQUIRED, required);
    if (okapiUrl != null) {
      request.header(OkapiHeaders.URL, okapiUrl);
    }
    return request.post("/circulation/check-in-by-barcode");
  }

  private Response filter(String required) {
    return filter(token, required, gatewayUrl);
  }

  private static JsonObject claims(String jwt) {
    return new JsonObject(
        new String(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]), StandardCharsets.UTF_8));
  }

  @Test
  void filter_grantsWhatModPermissionsSaysNotWhatTheStoreSays() {
    filter("circ.checkin").then().statusCode(202);
    filter("circ.checkout").then().statusCode(403).body(containsString("circ.checkout"));
  }

  @Test
  void filter_eachDecisionLooksUpUserThenPermissionsThroughTheGateway() {
    filter("circ.checkin").then().statusCode(202);
    filter("circ.checkin").then().statusCode(202);

    assertThat(lookups)
        .extracting(Lookup::uri)
        .containsExactly(
            "/users/" + aliceId,
            "/perms/users?query=userId%3D%3D" + aliceId,
            "/perms/users/" + PERM_USER_ID + "/permissions?expanded=true",
            "/users/" + aliceId,
            "/perms/users?query=userId%3D%3D" + aliceId,
            "/perms/users/" + PERM_USER_ID + "/permissions?expanded=true");
    assertThat(lookups)
        .allSatisfy(
            l -> {
              assertThat(l.tenant()).isEqualTo(TestModule.TENANT);
              assertThat(l.requestId()).isEqualTo("req-7");
              assertThat(l.token()).isNotEqualTo(token);
            });
  }

  @Test
  void lookups_carryATokenOfNoUserWithTheReadPermissionsOnly() {
    filter("circ.checkin").then().statusCode(202);

    JsonObject claims = claims(lookups.get(0).token());
    assertThat(claims.getString("user_id")).isNull();
    assertThat(claims.getString("tenant")).isEqualTo(TestModule.TENANT);
    assertThat(claims.getJsonArray("extra_permissions"))
        .containsExactlyInAnyOrder("users.item.get", "perms.users.get");
  }

  @Test
  void filter_callOfALookup_isDecidedFromItsTokenAloneWithoutLookingAnythingUp() {
    filter("circ.checkin").then().statusCode(202);
    String lookupToken = lookups.get(0).token();
    lookups.clear();

    filter(lookupToken, "users.item.get", gatewayUrl).then().statusCode(202);
    filter(lookupToken, "circ.checkin", gatewayUrl).then().statusCode(403);
    assertThat(lookups).isEmpty();
  }

  @Test
  void filter_userInactiveInModUsers_401() {
    users.get(aliceId).put("active", false);

    filter("circ.checkin").then().statusCode(401).body(containsString("not active"));
  }

  @Test
  void filter_userUnknownToModUsers_401() {
    users.clear();

    filter("circ.checkin").then().statusCode(401).body(containsString("does not exist"));
  }

  @Test
  void filter_modPermissionsFails_502NamingTheCall() {
    permissionsStatus = 500;

    filter("circ.checkin")
        .then()
        .statusCode(502)
        .body(containsString("GET /perms/users/{id}/permissions"), containsString("500"));
  }

  @Test
  void filter_gatewayUnreachable_502() {
    filter(token, "circ.checkin", "http://127.0.0.1:1")
        .then()
        .statusCode(502)
        .body(containsString("GET /users/"));
  }

  @Test
  void filter_withoutOkapiUrl_400() {
    filter(token, "circ.checkin", null)
        .then()
        .statusCode(400)
        .body(containsString(OkapiHeaders.URL));
  }

  @Test
  void filter_userOfTheSupertenant_comesFromTheStoreWithoutLookups() {
    module.createUser(GatewayUserSource.SUPERTENANT, "root", "secret", List.of("okapi.all"));
    String rootToken = module.token(GatewayUserSource.SUPERTENANT, "root", "secret");

    module
        .request(GatewayUserSource.SUPERTENANT)
        .header(OkapiHeaders.FILTER, "auth")
        .header(OkapiHeaders.TOKEN, rootToken)
        .header(OkapiHeaders.URL, gatewayUrl)
        .header(OkapiHeaders.PERMISSIONS_REQUIRED, "okapi.all")
        .get("/_/proxy/tenants")
        .then()
        .statusCode(202);
    assertThat(lookups).isEmpty();
  }

  @Test
  void filter_permissionsChangedInModPermissions_nextDecisionFollows() {
    filter("circ.checkin").then().statusCode(202);
    permissionNames = List.of("circ.checkout");

    filter("circ.checkin").then().statusCode(403);
  }
}
