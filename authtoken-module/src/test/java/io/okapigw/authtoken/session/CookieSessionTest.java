package io.okapigw.authtoken.session;

import static io.okapigw.authtoken.TestModule.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.TestModule;
import io.okapigw.authtoken.gateway.InvalidationOptions;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.okapigw.authtoken.token.ForgedTokens;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cookie sessions in the shapes of FOLIO's mod-login v7.13 ({@code LoginAPI}: cookie attributes,
 * bodies, error codes), as Stripes uses them: login, body-less refresh from the refresh cookie with
 * rotation and reuse detection, logout and logout-all expiring the cookies and telling the gateway.
 */
@ExtendWith(VertxExtension.class)
class CookieSessionTest {
  private static final Pattern COOKIE = Pattern.compile("^(folio\\w+)=([^;]*);");

  @TempDir Path dir;

  /** The cookie dates of RFC 6265 (RFC 1123's, the day in two digits), as mod-login writes them. */
  private static final java.time.format.DateTimeFormatter HTTP_DATE =
      java.time.format.DateTimeFormatter.ofPattern(
              "EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ENGLISH)
          .withZone(java.time.ZoneOffset.UTC);

  private final MutableClock clock = MutableClock.ofNow();
  private final BlockingQueue<JsonObject> invalidations = new LinkedBlockingQueue<>();
  private HttpServer gateway;
  private TestModule module;
  private String aliceId;

  @BeforeEach
  void setUp(Vertx vertx) {
    deploy(vertx, SameSite.LAX, dir);
  }

  private void deploy(Vertx vertx, SameSite sameSite, Path where) {
    gateway =
        await(
            vertx
                .createHttpServer()
                .requestHandler(
                    req ->
                        req.body()
                            .onSuccess(
                                b -> {
                                  invalidations.add(b.toJsonObject());
                                  req.response().setStatusCode(204).end();
                                }))
                .listen(0, "127.0.0.1"));
    module =
        TestModule.deploy(
            vertx,
            TestModule.options(where)
                .withCookieSameSite(sameSite)
                .withInvalidation(
                    InvalidationOptions.to("http://127.0.0.1:" + gateway.actualPort())),
            clock);
    aliceId = module.createUser("alice", "correct horse", List.of("p.1"));
  }

  @AfterEach
  void tearDown() {
    module.undeploy();
    await(gateway.close());
  }

  private Response loginWithExpiry(String password) {
    return module
        .request(TestModule.TENANT)
        .contentType(ContentType.JSON)
        .body(new JsonObject().put("username", "alice").put("password", password).encode())
        .post("/authn/login-with-expiry");
  }

  /** {@code Set-Cookie} values by cookie name. */
  private static Map<String, String> setCookies(Response r) {
    return r.headers().getList("Set-Cookie").stream()
        .collect(
            java.util.stream.Collectors.toMap(
                h -> name(h.getValue()), h -> h.getValue(), (a, b) -> a + " AND " + b));
  }

  private static String name(String setCookie) {
    Matcher m = COOKIE.matcher(setCookie);
    assertThat(m.find()).as(setCookie).isTrue();
    return m.group(1);
  }

  private static String value(String setCookie) {
    Matcher m = COOKIE.matcher(setCookie);
    assertThat(m.find()).as(setCookie).isTrue();
    return m.group(2);
  }

  private Response refresh(String refreshCookie) {
    return module
        .request(TestModule.TENANT)
        .contentType(ContentType.JSON)
        .header("Cookie", "folioRefreshToken=" + refreshCookie)
        .post("/authn/refresh");
  }

  private int filterStatus(String accessCookie) {
    return module
        .filter()
        .header("Cookie", "folioAccessToken=" + accessCookie)
        .get("/x")
        .statusCode();
  }

  private static void assertFolioError(Response r, int status, String code) {
    r.then().statusCode(status).contentType("application/json");
    JsonObject error = new JsonObject(r.asString()).getJsonArray("errors").getJsonObject(0);
    assertThat(error.getString("code")).isEqualTo(code);
    assertThat(error.getString("type")).isEqualTo("error");
    assertThat(error.getJsonArray("parameters")).isEmpty();
  }

  @Test
  void loginWithExpiry_tokensOnlyInCookiesWithModLoginsAttributes_expiriesInTheBody() {
    clock.advance(Duration.ofHours(1)); // the cookies' dates come from the module's clock
    Response r = loginWithExpiry("correct horse");

    r.then().statusCode(201).contentType("application/json").header("Cache-Control", "no-store");
    assertThat(r.header(OkapiHeaders.TOKEN)).isNull();
    Instant accessExp = clock.instant().plus(Duration.ofMinutes(10));
    Instant refreshExp = clock.instant().plus(Duration.ofDays(7));
    assertThat(new JsonObject(r.asString()))
        .isEqualTo(
            new JsonObject()
                .put("accessTokenExpiration", accessExp.toString())
                .put("refreshTokenExpiration", refreshExp.toString()));
    Map<String, String> cookies = setCookies(r);
    assertThat(cookies).containsOnlyKeys("folioAccessToken", "folioRefreshToken");
    String access = cookies.get("folioAccessToken");
    assertThat(access.substring(access.indexOf(';')))
        .isEqualTo(
            "; Max-Age=600; Expires="
                + HTTP_DATE.format(accessExp)
                + "; Path=/; Secure; HTTPOnly; SameSite=Lax");
    assertThat(cookies.get("folioRefreshToken"))
        .contains("; Max-Age=604800; ")
        .endsWith("; Path=/authn; Secure; HTTPOnly; SameSite=Lax");
    JsonObject claims = ForgedTokens.payload(value(access));
    assertThat(claims.getString("user_id")).isEqualTo(aliceId);
    assertThat(filterStatus(value(access))).isEqualTo(202);
  }

  @Test
  void loginWithExpiry_gatewayUnderAPath_cookiePathsUnderIt() {
    Response r =
        module
            .request(TestModule.TENANT)
            .header(OkapiHeaders.URL, "https://folio.example.org/okapi/")
            .contentType(ContentType.JSON)
            .body(
                new JsonObject().put("username", "alice").put("password", "correct horse").encode())
            .post("/authn/login-with-expiry");

    Map<String, String> cookies = setCookies(r);
    assertThat(cookies.get("folioAccessToken")).contains("; Path=/okapi/;");
    assertThat(cookies.get("folioRefreshToken")).contains("; Path=/okapi/authn;");
  }

  @Test
  void loginWithExpiry_sameSiteNone_asConfigured(Vertx vertx) {
    tearDown();
    deploy(vertx, SameSite.NONE, dir.resolve("none"));

    assertThat(setCookies(loginWithExpiry("correct horse")).values())
        .allSatisfy(c -> assertThat(c).endsWith("; SameSite=None"));
  }

  @Test
  void loginWithExpiry_wrongPasswordOrInactive_422AsModLogin_noCookie() {
    Response wrong = loginWithExpiry("wrong");
    assertFolioError(wrong, 422, "wrong.username.or.wrong.password.or.account.blocked");
    assertThat(wrong.headers().getList("Set-Cookie")).isEmpty();

    module
        .request(TestModule.TENANT)
        .body("{\"active\":false}")
        .put("/users/" + aliceId)
        .then()
        .statusCode(204);
    assertFolioError(
        loginWithExpiry("correct horse"),
        422,
        "wrong.username.or.wrong.password.or.account.blocked");
  }

  @Test
  void refresh_bodyLessFromTheCookie_rotatesBothTokens() {
    Map<String, String> first = setCookies(loginWithExpiry("correct horse"));
    clock.advance(Duration.ofMinutes(5));

    Response r = refresh(value(first.get("folioRefreshToken")));

    r.then().statusCode(201).header("Cache-Control", "no-store");
    Map<String, String> second = setCookies(r);
    assertThat(value(second.get("folioRefreshToken")))
        .isNotEqualTo(value(first.get("folioRefreshToken")));
    assertThat(value(second.get("folioAccessToken")))
        .isNotEqualTo(value(first.get("folioAccessToken")));
    assertThat(new JsonObject(r.asString()).getString("accessTokenExpiration"))
        .isEqualTo(clock.instant().plus(Duration.ofMinutes(10)).toString());
    assertThat(filterStatus(value(second.get("folioAccessToken")))).isEqualTo(202);
  }

  @Test
  void refresh_usedRefreshCookieAgain_422_andTheSessionIsOver() throws Exception {
    Map<String, String> first = setCookies(loginWithExpiry("correct horse"));
    Map<String, String> second = setCookies(refresh(value(first.get("folioRefreshToken"))));

    assertFolioError(
        refresh(value(first.get("folioRefreshToken"))), 422, "token.refresh.unprocessable");

    assertThat(filterStatus(value(second.get("folioAccessToken")))).isEqualTo(401);
    assertFolioError(
        refresh(value(second.get("folioRefreshToken"))), 422, "token.refresh.unprocessable");
    assertThat(nextInvalidation())
        .isEqualTo(new JsonObject().put("tenant", "diku").put("userId", aliceId));
  }

  @Test
  void refresh_noCookieNoBody_400TokenParseFailure_unknownCookie_422() {
    assertFolioError(
        module.request(TestModule.TENANT).contentType(ContentType.JSON).post("/authn/refresh"),
        400,
        "token.parse.failure");
    assertFolioError(refresh("not-a-token"), 422, "token.refresh.unprocessable");
  }

  @Test
  void logout_withTheRefreshCookieOnly_endsTheSession_expiresBothCookies_tellsTheGateway()
      throws Exception {
    Map<String, String> cookies = setCookies(loginWithExpiry("correct horse"));

    Response r =
        module
            .request(TestModule.TENANT)
            .header("Cookie", "folioRefreshToken=" + value(cookies.get("folioRefreshToken")))
            .post("/authn/logout");

    r.then().statusCode(204);
    assertThat(r.headers().getValues("Set-Cookie"))
        .containsExactly(
            "folioAccessToken=; SameSite=None; Secure; Path=/; Expires=Thu, 01 Jan 1970 00:00:00"
                + " GMT",
            "folioRefreshToken=; SameSite=None; Secure; Path=/authn; Expires=Thu, 01 Jan 1970"
                + " 00:00:00 GMT");
    assertThat(nextInvalidation())
        .isEqualTo(new JsonObject().put("tenant", "diku").put("userId", aliceId));
    assertThat(filterStatus(value(cookies.get("folioAccessToken")))).isEqualTo(401);
    assertFolioError(
        refresh(value(cookies.get("folioRefreshToken"))), 422, "token.refresh.unprocessable");
  }

  @Test
  void logout_unknownRefreshCookie_422_nothingChanges() {
    Map<String, String> cookies = setCookies(loginWithExpiry("correct horse"));

    assertFolioError(
        module
            .request(TestModule.TENANT)
            .header("Cookie", "folioRefreshToken=nope")
            .post("/authn/logout"),
        422,
        "token.logout.unprocessable");

    assertThat(filterStatus(value(cookies.get("folioAccessToken")))).isEqualTo(202);
  }

  @Test
  void logoutAll_endsEverySessionOfTheUser() throws Exception {
    Map<String, String> browser = setCookies(loginWithExpiry("correct horse"));
    Map<String, String> laptop = setCookies(loginWithExpiry("correct horse"));
    String otherUser = module.createUser("bob", "pw", List.of());
    String bobs = module.token("bob", "pw");

    module
        .request(TestModule.TENANT)
        .header("Cookie", "folioAccessToken=" + value(browser.get("folioAccessToken")))
        .post("/authn/logout-all")
        .then()
        .statusCode(204)
        .header("Set-Cookie", org.hamcrest.Matchers.startsWith("folio"));

    for (Map<String, String> session : List.of(browser, laptop)) {
      assertThat(filterStatus(value(session.get("folioAccessToken")))).isEqualTo(401);
      assertFolioError(
          refresh(value(session.get("folioRefreshToken"))), 422, "token.refresh.unprocessable");
    }
    assertThat(module.filter().header(OkapiHeaders.TOKEN, bobs).get("/x").statusCode())
        .as("another user's session, " + otherUser)
        .isEqualTo(202);
    assertThat(nextInvalidation())
        .isEqualTo(new JsonObject().put("tenant", "diku").put("userId", aliceId));
  }

  @Test
  void logoutAll_withoutToken_422AsModLogin() {
    assertFolioError(
        module.request(TestModule.TENANT).post("/authn/logout-all"),
        422,
        "token.logout.unprocessable");
  }

  private JsonObject nextInvalidation() throws InterruptedException {
    JsonObject call = invalidations.poll(1, TimeUnit.MINUTES);
    assertThat(call).as("an invalidation sent to the gateway").isNotNull();
    return call;
  }
}
