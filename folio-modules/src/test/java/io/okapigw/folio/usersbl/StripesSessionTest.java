package io.okapigw.folio.usersbl;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.AuthtokenVerticle;
import io.okapigw.authtoken.gateway.InvalidationOptions;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.core.Gateway;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.data.Librarian;
import io.okapigw.folio.register.AuthtokenDescriptor;
import io.okapigw.folio.register.GatewayRegistration;
import io.okapigw.folio.register.GatewayRegistration.Module;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Stripes does, call by call, against the real gateway, the real authtoken module and the
 * simulated modules registered as {@code register} does it: login at mod-users-bl with the tokens
 * in cookies, interface discovery, a check-out and check-in with only the access-token cookie,
 * refresh from the refresh cookie, logout. Each step failed on the gateway of issue 23 (404 for the
 * login paths and the tenant's discovery, ids only without {@code full}, 400 for a body-less
 * refresh, 401 for the cookie-only check-out).
 */
class StripesSessionTest {

  private static final String TENANT = "diku";
  private static final Vertx vertx = Vertx.vertx();
  private static Gateway gateway;
  private static CirculationModules modules;

  @TempDir static Path dir;

  @BeforeAll
  static void start() {
    gateway = Gateway.start(vertx, GatewayOptions.defaults(0).withInstances(1)).await();
    List<String> permissions = new ArrayList<>(Librarian.PERMISSIONS);
    AuthtokenVerticle authtoken =
        new AuthtokenVerticle(
            AuthtokenOptions.onLoopback(dir)
                .withInvalidation(InvalidationOptions.to(gateway.okapiUrl()))
                .withPasswords(PasswordOptions.cheapest())
                .withBootstrap(
                    List.of(new BootstrapUser(TENANT, "diku_admin", "admin", permissions))));
    vertx.deployVerticle(authtoken).await();
    modules = CirculationModules.start(vertx, new CirculationData.Options(42, 20, 20)).await();
    List<Module> all = new ArrayList<>();
    all.add(new Module(AuthtokenDescriptor.read(), "http://127.0.0.1:" + authtoken.actualPort()));
    modules.deployments().forEach(d -> all.add(d.module()));
    GatewayRegistration.register(vertx, gateway.okapiUrl(), TENANT, all).await();
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  private static RequestSpecification browser() {
    return given()
        .baseUri(gateway.okapiUrl())
        .header("Origin", "http://localhost:3000")
        .header("X-Okapi-Tenant", TENANT)
        .contentType("application/json");
  }

  private static Response login(String path, String password) {
    return browser()
        .body(new JsonObject().put("username", "diku_admin").put("password", password).encode())
        .post(path + "?expandPermissions=true&fullPermissions=true");
  }

  /** The session cookies of an answer, name to value. */
  private static Map<String, String> cookies(Response r) {
    return r.headers().getValues("Set-Cookie").stream()
        .map(c -> c.substring(0, c.indexOf(';')).split("=", 2))
        .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
  }

  private static Response checkOut(String accessCookie, String item, String patron) {
    return browser()
        .header("Cookie", "folioAccessToken=" + accessCookie)
        .body(
            new JsonObject()
                .put("itemBarcode", item)
                .put("userBarcode", patron)
                .put("servicePointId", modules.data().servicePointId())
                .encode())
        .post("/circulation/check-out-by-barcode");
  }

  private static Response checkIn(String accessCookie, String item) {
    return browser()
        .header("Cookie", "folioAccessToken=" + accessCookie)
        .body(
            new JsonObject()
                .put("itemBarcode", item)
                .put("servicePointId", modules.data().servicePointId())
                .encode())
        .post("/circulation/check-in-by-barcode");
  }

  @Test
  void loginWithExpiry_compositeUserAndTheTokensInCookiesOnly() {
    Response r = login("/bl-users/login-with-expiry", "admin");

    r.then().statusCode(201).header("Access-Control-Allow-Origin", "http://localhost:3000");
    assertThat(r.header("X-Okapi-Token")).isNull();
    assertThat(cookies(r)).containsOnlyKeys("folioAccessToken", "folioRefreshToken");
    assertThat(r.headers().getValues("Set-Cookie"))
        .anySatisfy(c -> assertThat(c).startsWith("folioRefreshToken=").contains("; Path=/authn;"));
    JsonObject body = new JsonObject(r.asString());
    assertThat(body.getJsonObject("user").getString("username")).isEqualTo("diku_admin");
    assertThat(body.getString("tenant")).isEqualTo(TENANT);
    assertThat(body.getJsonObject("tokenExpiration").fieldNames())
        .containsExactlyInAnyOrder("accessTokenExpiration", "refreshTokenExpiration");
    assertThat(body.getJsonObject("permissions").getJsonArray("permissions"))
        .contains(new JsonObject().put("permissionName", "circulation.check-out-by-barcode.post"));
    assertThat(body.getJsonObject("servicePointsUser").getString("defaultServicePointId"))
        .isEqualTo(modules.data().servicePointId());
  }

  @Test
  void login_olderStripesPath_tokenInXOkapiToken() {
    Response r = login("/bl-users/login", "admin");

    r.then().statusCode(201);
    assertThat(r.header("X-Okapi-Token")).isNotBlank();
    assertThat(new JsonObject(r.asString()).containsKey("tokenExpiration")).isFalse();
  }

  @Test
  void login_wrongPassword_422WithModLoginsError() {
    Response r = login("/bl-users/login-with-expiry", "wrong");

    r.then().statusCode(422);
    assertThat(
            new JsonObject(r.asString()).getJsonArray("errors").getJsonObject(0).getString("code"))
        .isEqualTo("wrong.username.or.wrong.password.or.account.blocked");
    assertThat(r.headers().getValues("Set-Cookie")).isEmpty();
  }

  @Test
  void discovery_withTheAccessCookie_versionAndWholeDescriptors() {
    String access = cookies(login("/bl-users/login-with-expiry", "admin")).get("folioAccessToken");

    browser()
        .header("Cookie", "folioAccessToken=" + access)
        .get("/_/version")
        .then()
        .statusCode(200);
    JsonArray descriptors =
        new JsonArray(
            browser()
                .header("Cookie", "folioAccessToken=" + access)
                .get("/_/proxy/tenants/" + TENANT + "/modules?full=true")
                .then()
                .statusCode(200)
                .extract()
                .asString());
    List<String> interfaces = new ArrayList<>();
    descriptors.forEach(
        d ->
            ((JsonObject) d)
                .getJsonArray("provides", new JsonArray())
                .forEach(i -> interfaces.add(((JsonObject) i).getString("id"))));
    assertThat(interfaces).contains("circulation", "users-bl", "login", "okapi");
  }

  @Test
  void checkOutAndIn_withOnlyTheAccessCookie() {
    String access = cookies(login("/bl-users/login-with-expiry", "admin")).get("folioAccessToken");
    String item = modules.data().itemBarcodes().get(3);

    checkOut(access, item, modules.data().activePatronBarcodes().get(3)).then().statusCode(201);
    checkIn(access, item).then().statusCode(200);
  }

  @Test
  void refresh_bodyLess_rotates_andAUsedRefreshCookieEndsTheSession() {
    Map<String, String> first = cookies(login("/bl-users/login-with-expiry", "admin"));

    Response refreshed =
        browser()
            .header("Cookie", "folioRefreshToken=" + first.get("folioRefreshToken"))
            .post("/authn/refresh");
    refreshed.then().statusCode(201);
    Map<String, String> second = cookies(refreshed);
    assertThat(second.get("folioRefreshToken")).isNotEqualTo(first.get("folioRefreshToken"));

    browser()
        .header("Cookie", "folioRefreshToken=" + first.get("folioRefreshToken"))
        .post("/authn/refresh")
        .then()
        .statusCode(422);
    checkIn(second.get("folioAccessToken"), "nosuchitem").then().statusCode(401);
  }

  @Test
  void logout_dropsTheCachedGrantAtOnce() {
    Map<String, String> session = cookies(login("/bl-users/login-with-expiry", "admin"));
    String item = modules.data().itemBarcodes().get(5);
    checkOut(session.get("folioAccessToken"), item, modules.data().activePatronBarcodes().get(5))
        .then()
        .statusCode(201);
    checkIn(session.get("folioAccessToken"), item).then().statusCode(200);

    browser()
        .header(
            "Cookie",
            "folioAccessToken="
                + session.get("folioAccessToken")
                + "; folioRefreshToken="
                + session.get("folioRefreshToken"))
        .post("/authn/logout")
        .then()
        .statusCode(204);

    checkIn(session.get("folioAccessToken"), item).then().statusCode(401);
  }
}
