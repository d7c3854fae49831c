package io.okapigw.core.eureka;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.jsonwebtoken.Jwts;
import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.TestModule.Recorded;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An Eureka tenant beside an Okapi tenant on one gateway, against a Keycloak that answers as
 * Keycloak does ({@link FakeKeycloak}; the real one: it-tests' {@code EurekaTenantsIT}): tokens
 * checked as the sidecar checks them, decisions asked as it asks them and cached by tenant, method,
 * static path, user and session.
 */
class EurekaTenantTest {

  private static final String USER = "8b7f486d-e389-42bc-a056-e54dfafd585b";
  private static final String THINGS = "mod-things-1.0.0";

  private final Vertx keycloakVertx = Vertx.vertx();
  private final FakeKeycloak keycloak = new FakeKeycloak(keycloakVertx);
  private GatewayFixture gw;
  private TestModule things;

  @BeforeEach
  void start() {
    GatewayOptions options =
        GatewayOptions.defaults(0)
            .withEureka(
                EurekaOptions.from(
                    Settings.of(
                        Map.of(
                            "eureka.keycloak-url",
                            keycloak.url(),
                            "eureka.jwks-refetch-min",
                            "1h"))));
    gw = new GatewayFixture(options);
    gw.createEurekaTenant("eur");
    gw.createTenant("diku");
    things =
        TestModule.start(
            gw.vertx(), router -> router.route().handler(ctx -> ctx.response().end("things")));
    JsonObject descriptor =
        module(
            THINGS,
            "things",
            handler("GET", "/things", "things.collection.get"),
            handler("POST", "/things", "things.item.post"),
            handler("GET", "/things/{id}", "things.item.get")
                .put("permissionsDesired", new JsonArray().add("things.extra")),
            handler("GET", "/open"));
    gw.install("eur", descriptor, things.url());
    gw.enable("diku", THINGS);
    keycloak.granted.add("/things#GET");
    keycloak.granted.add("/things/{id}#GET");
  }

  @AfterEach
  void stop() {
    gw.close();
    keycloak.close();
    keycloakVertx.close().await();
  }

  private String token(String sid) {
    return keycloak.token("eur", USER, sid, Instant.now().plusSeconds(600));
  }

  @Test
  void keycloakDecides_grantedAndDenied_sameCallAgainAsksNoMore() {
    String token = token("s1");

    gw.tenant("eur")
        .header("Authorization", "Bearer " + token)
        .get("/things")
        .then()
        .statusCode(200);
    gw.tenant("eur")
        .header("Authorization", "Bearer " + token)
        .post("/things")
        .then()
        .statusCode(403)
        .body("errors[0].type", org.hamcrest.Matchers.equalTo("ForbiddenException"))
        .body("total_records", org.hamcrest.Matchers.equalTo(1));
    gw.tenant("eur")
        .header("Authorization", "Bearer " + token)
        .get("/things")
        .then()
        .statusCode(200);

    assertThat(keycloak.asked)
        .extracting(FakeKeycloak.Asked::permission)
        .containsExactly("/things#GET", "/things#POST");
  }

  @Test
  void module_getsTheTokenAsXOkapiToken_theUserFromTheToken_noAuthorization() {
    String token = token("s1");

    gw.tenant("eur")
        .header("Authorization", "Bearer " + token)
        .header("X-Okapi-User-Id", "someone-else")
        .header("X-System-Token", "a client's claim")
        .get("/things")
        .then()
        .statusCode(200);

    Recorded got = things.take();
    assertThat(got.header("X-Okapi-Token")).isEqualTo(token);
    assertThat(got.header("X-Okapi-User-Id")).isEqualTo(USER);
    assertThat(got.header("Authorization")).isNull();
    assertThat(got.header("X-System-Token")).as("only the gateway writes it").isNull();
    assertThat(got.header("X-Okapi-Tenant")).isEqualTo("eur");
    assertThat(got.header("X-Okapi-Url")).isEqualTo(gw.url());
  }

  @Test
  void refreshedToken_sameSession_noNewDecision_otherSession_asks() {
    gw.tenant("eur").header("X-Okapi-Token", token("s1")).get("/things").then().statusCode(200);
    String refreshed = keycloak.token("eur", USER, "s1", Instant.now().plusSeconds(900));

    gw.tenant("eur").header("X-Okapi-Token", refreshed).get("/things").then().statusCode(200);
    assertThat(keycloak.decisions()).isEqualTo(1);

    gw.tenant("eur").header("X-Okapi-Token", token("s2")).get("/things").then().statusCode(200);
    assertThat(keycloak.decisions()).isEqualTo(2);
  }

  @Test
  void tokensKeycloakWouldNotTake_refused401_withoutAskingForADecision() {
    SecretKey hmac = Jwts.SIG.HS256.key().build();
    String authtoken =
        Jwts.builder()
            .subject("diku_admin")
            .claim("user_id", USER)
            .claim("tenant", "eur")
            .signWith(hmac)
            .compact();
    String otherRealm = keycloak.token("other", USER, "s1", Instant.now().plusSeconds(600));
    String expired = keycloak.token("eur", USER, "s1", Instant.now().minusSeconds(120));
    String forged = keycloak.forged("eur", USER, "s1", Instant.now().plusSeconds(600));

    for (String bad : new String[] {authtoken, otherRealm, expired, forged, "not-a-jwt"}) {
      gw.tenant("eur").header("X-Okapi-Token", bad).get("/things").then().statusCode(401);
    }
    gw.tenant("eur")
        .get("/things")
        .then()
        .statusCode(401)
        .body(containsString("a token is needed"));
    assertThat(keycloak.decisions()).isZero();
  }

  @Test
  void noPermissionsRequired_noDecision_noTokenNeeded_aBadTokenStillRefused() {
    gw.tenant("eur").get("/open").then().statusCode(200);
    gw.tenant("eur").header("X-Okapi-Token", token("s1")).get("/open").then().statusCode(200);
    assertThat(things.drain())
        .last()
        .satisfies(r -> assertThat(r.header("X-Okapi-User-Id")).isEqualTo(USER));
    gw.tenant("eur").header("X-Okapi-Token", "not-a-jwt").get("/open").then().statusCode(401);
    assertThat(keycloak.decisions()).isZero();
  }

  @Test
  void okapiTenant_keycloakToken_refused() {
    gw.tenant("diku")
        .header("X-Okapi-Token", keycloak.token("diku", USER, "s1", Instant.now().plusSeconds(600)))
        .get("/open")
        .then()
        .statusCode(401)
        .body(containsString("whose auth is Okapi's"));
    gw.tenant("diku").get("/open").then().statusCode(200);
  }

  @Test
  void authorizationAndXOkapiTokenDiffer_400() {
    gw.tenant("eur")
        .header("Authorization", "Bearer " + token("s1"))
        .header("X-Okapi-Token", token("s2"))
        .get("/things")
        .then()
        .statusCode(400);
  }

  @Test
  void keyRotated_unknownKid_keysFetchedAgainOnce() {
    gw.tenant("eur").header("X-Okapi-Token", token("s1")).get("/things").then().statusCode(200);
    assertThat(keycloak.keyFetches.get()).isEqualTo(1);
    keycloak.rotate("k2");

    gw.tenant("eur").header("X-Okapi-Token", token("s2")).get("/things").then().statusCode(200);
    assertThat(keycloak.keyFetches.get()).isEqualTo(2);

    keycloak.rotate("k3"); // within eureka.jwks-refetch-min: not fetched again
    gw.tenant("eur").header("X-Okapi-Token", token("s3")).get("/things").then().statusCode(401);
    assertThat(keycloak.keyFetches.get()).isEqualTo(2);
  }

  /**
   * As an attacker flooding the gateway with tokens of key ids the realm never had (each signed by
   * a key of its own), from many connections at once: the realm's keys are fetched again at most
   * once per {@code eureka.jwks-refetch-min}, so no client can make the gateway hammer Keycloak;
   * each token 401, no decision asked, and a good token still served.
   */
  @Test
  void unknownKidFlood_keysFetchedAgainAtMostOnce_allRefused() throws Exception {
    gw.tenant("eur").header("X-Okapi-Token", token("s1")).get("/things").then().statusCode(200);
    int fetched = keycloak.keyFetches.get();
    ExecutorService clients = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> statuses = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        String bad =
            keycloak.forged("eur", USER, "s1", Instant.now().plusSeconds(600), "kid-" + uuid());
        statuses.add(
            clients.submit(
                () -> gw.tenant("eur").header("X-Okapi-Token", bad).get("/things").statusCode()));
      }
      for (Future<Integer> status : statuses) {
        assertThat(status.get(1, TimeUnit.MINUTES)).isEqualTo(401);
      }
    } finally {
      clients.shutdownNow();
    }

    assertThat(keycloak.keyFetches.get() - fetched).as("fetches for 200 unknown kids").isEqualTo(1);
    assertThat(keycloak.decisions()).isEqualTo(1);
    gw.tenant("eur").header("X-Okapi-Token", token("s2")).get("/things").then().statusCode(200);
  }

  /**
   * As an attacker holding a good token of realm {@code eur2}, another Eureka tenant of this
   * gateway on the same Keycloak (granted there): sent with {@code X-Okapi-Tenant: eur}, refused
   * 401 before any decision, whichever header carries it.
   */
  @Test
  void tokenOfAnotherTenantsRealm_refused401_noDecision() {
    gw.createEurekaTenant("eur2");
    gw.enable("eur2", THINGS);
    String eur2 = keycloak.token("eur2", USER, "s9", Instant.now().plusSeconds(600));
    gw.tenant("eur2").header("X-Okapi-Token", eur2).get("/things").then().statusCode(200);
    assertThat(keycloak.decisions()).isEqualTo(1);

    gw.tenant("eur")
        .header("X-Okapi-Token", eur2)
        .get("/things")
        .then()
        .statusCode(401)
        .body(containsString("its iss differs"));
    gw.tenant("eur")
        .header("Authorization", "Bearer " + eur2)
        .get("/things")
        .then()
        .statusCode(401);
    gw.tenant("eur").header("X-Okapi-Token", eur2).get("/open").then().statusCode(401);
    assertThat(keycloak.decisions()).isEqualTo(1);
    assertThat(keycloak.asked).extracting(FakeKeycloak.Asked::realm).containsOnly("eur2");
  }

  @Test
  void sessionRevoked_nextCallAsksKeycloak_whichRefuses() {
    String token = token("s1");
    gw.tenant("eur").header("X-Okapi-Token", token).get("/things").then().statusCode(200);
    keycloak.endedSessions.add("s1");
    gw.tenant("eur").header("X-Okapi-Token", token).get("/things").then().statusCode(200);

    gw.request()
        .body(new JsonObject().put("tenant", "eur").put("session", "s1").encode())
        .post("/_/proxy/auth-cache/invalidate")
        .then()
        .statusCode(204);

    gw.tenant("eur").header("X-Okapi-Token", token).get("/things").then().statusCode(401);
    assertThat(keycloak.decisions()).isEqualTo(2);
  }

  /**
   * The decision request equals the sidecar's: its {@code KeycloakClient.evaluatePermissions} is
   * Vert.x's web client {@code postAbs(url).bearerTokenAuthentication(token).sendForm(form)} with
   * {@code TokenRequestHelper.prepareUmaDecisionRequestBody}'s form (a case-insensitive {@code
   * MultiMap}: {@code grant_type}, {@code permission}, {@code audience}, {@code response_mode}, in
   * that order; folio-module-sidecar's source, checked side by side), run here as it runs there,
   * and the permission its {@code KeycloakAuthorizationFilter.resolvePermission} names: the routing
   * entry's static path, {@code #}, the request's method.
   */
  @Test
  void decisionRequest_equalsTheSidecars_byteForByte() {
    String token = token("s1");
    gw.tenant("eur")
        .header("X-Okapi-Token", token)
        .get("/things/{id}".replace("{id}", "1"))
        .then()
        .statusCode(200);
    FakeKeycloak.Asked ours = keycloak.asked.get(0);

    WebClient client = WebClient.create(keycloakVertx);
    MultiMap form =
        MultiMap.caseInsensitiveMultiMap()
            .set("grant_type", "urn:ietf:params:oauth:grant-type:uma-ticket")
            .set("permission", "/things/{id}#GET")
            .set("audience", "eur" + "-login-application")
            .set("response_mode", "decision");
    client
        .postAbs(keycloak.url() + "/realms/eur/protocol/openid-connect/token")
        .bearerTokenAuthentication(token)
        .sendForm(form)
        .await();
    FakeKeycloak.Asked sidecars = keycloak.asked.get(1);
    client.close();

    assertThat(fields(ours.body()))
        .as("field by field, in order, as TokenRequestHelper.prepareUmaDecisionRequestBody")
        .containsExactly(
            "grant_type=urn:ietf:params:oauth:grant-type:uma-ticket",
            "permission=/things/{id}#GET",
            "audience=eur-login-application",
            "response_mode=decision")
        .isEqualTo(fields(sidecars.body()));
    assertThat(ours.body()).isEqualTo(sidecars.body());
    assertThat(ours.body().getBytes(StandardCharsets.UTF_8))
        .isEqualTo(sidecars.body().getBytes(StandardCharsets.UTF_8));
    assertThat(ours.authorization()).isEqualTo(sidecars.authorization());
    assertThat(ours.contentType()).isEqualTo(sidecars.contentType());
    assertThat(ours.realm()).isEqualTo(sidecars.realm());
  }

  @Test
  void tenantAuth_badValue_400_eurekaNamedInTheTenant() {
    gw.request()
        .body(new JsonObject().put("id", "bad").put("auth", "kong").encode())
        .post("/_/proxy/tenants")
        .then()
        .statusCode(400)
        .body(containsString("\"okapi\" or \"eureka\""));
    gw.request()
        .get("/_/proxy/tenants/eur")
        .then()
        .statusCode(200)
        .body("auth", org.hamcrest.Matchers.equalTo("eureka"));
  }

  /**
   * As an attacker: a token whose signature an HMAC with the realm's public key (which its JWKS
   * publishes) would verify, if the gateway took the token's {@code alg}; an unsigned one; an RS256
   * token of the realm's key id signed by another key. Each 401, no decision asked.
   */
  @Test
  void algConfusion_hs256WithThePublicKey_none_refused401_noDecision() {
    javax.crypto.SecretKey publicKeyAsHmac =
        new javax.crypto.spec.SecretKeySpec(keycloak.publicKeyBytes(), "HmacSHA256");
    String hs256 =
        Jwts.builder()
            .header()
            .keyId(keycloak.currentKid())
            .and()
            .issuer(keycloak.url() + "/realms/eur")
            .claim("sid", "s1")
            .claim("user_id", USER)
            .expiration(java.util.Date.from(Instant.now().plusSeconds(600)))
            .signWith(publicKeyAsHmac, Jwts.SIG.HS256)
            .compact();
    String none =
        io.okapigw.core.testing.UnsignedJwt.of(
            new JsonObject()
                .put("iss", keycloak.url() + "/realms/eur")
                .put("sid", "s1")
                .put("user_id", USER)
                .put("exp", Instant.now().plusSeconds(600).getEpochSecond()));
    gw.tenant("eur").header("X-Okapi-Token", token("s1")).get("/things").then().statusCode(200);

    for (String bad : new String[] {hs256, none}) {
      gw.tenant("eur")
          .header("X-Okapi-Token", bad)
          .get("/things")
          .then()
          .statusCode(401)
          .body(containsString("not signed with RS256"));
      gw.tenant("eur").header("X-Okapi-Token", bad).get("/open").then().statusCode(401);
    }
    assertThat(keycloak.decisions()).isEqualTo(1);
  }

  /**
   * As an attacker holding an expired token of a session whose decision the gateway caches (the key
   * is the session, not the token): refused, the cached grant not served.
   */
  @Test
  void expiredTokenOfACachedSession_refused401_theCachedGrantNotServed() {
    gw.tenant("eur").header("X-Okapi-Token", token("s1")).get("/things").then().statusCode(200);
    String expired = keycloak.token("eur", USER, "s1", Instant.now().minusSeconds(61));

    gw.tenant("eur")
        .header("X-Okapi-Token", expired)
        .get("/things")
        .then()
        .statusCode(401)
        .body(containsString("expired"));
    assertThat(keycloak.decisions()).isEqualTo(1);
    assertThat(things.drain()).hasSize(1);
  }

  /**
   * As an attacker holding the ID token of a session whose decision the gateway caches (signed by
   * the realm, of the same user and session): Keycloak refuses anything but an access token ({@code
   * typ} {@code Bearer}) with 401, so the gateway does, before its cache; a refresh token, a token
   * without {@code typ} the same. The sidecar checks no {@code typ}: it leaves the refusal to
   * Keycloak, unless its own cache (keyed by user, session and {@code exp}) has a grant.
   */
  @Test
  void idTokenOfACachedSession_refused401_theCachedGrantNotServed() {
    gw.tenant("eur").header("X-Okapi-Token", token("s1")).get("/things").then().statusCode(200);
    Instant exp = Instant.now().plusSeconds(600);

    for (String typ : new String[] {"ID", "Refresh", "Logout", "bearer", null}) {
      String other = keycloak.token("eur", USER, "s1", exp, typ);
      gw.tenant("eur")
          .header("X-Okapi-Token", other)
          .get("/things")
          .then()
          .statusCode(401)
          .body("errors[0].type", org.hamcrest.Matchers.equalTo("UnauthorizedException"))
          .body(containsString("not an access token"));
      gw.tenant("eur").header("X-Okapi-Token", other).get("/open").then().statusCode(401);
    }
    assertThat(keycloak.decisions()).isEqualTo(1);
    assertThat(things.drain()).hasSize(1);
  }

  /**
   * Keycloak reached as {@code eureka.keycloak-url} while its tokens name its public URL ({@code
   * eureka.keycloak-issuer-url}): those are taken; a token naming the internal URL, or any other,
   * is not.
   */
  @Test
  void issuerUrl_tokensNamingThePublicUrl_taken_othersRefused() {
    gw.close();
    String publicUrl = "https://keycloak.example.org";
    gw =
        new GatewayFixture(
            GatewayOptions.defaults(0)
                .withEureka(
                    EurekaOptions.from(
                        Settings.of(
                            Map.of(
                                "eureka.keycloak-url",
                                keycloak.url(),
                                "eureka.keycloak-issuer-url",
                                publicUrl + "/")))));
    gw.createEurekaTenant("eur");
    things =
        TestModule.start(gw.vertx(), r -> r.route().handler(ctx -> ctx.response().end("things")));
    gw.install(
        "eur", module(THINGS, "things", handler("GET", "/things", "things.get")), things.url());
    Instant exp = Instant.now().plusSeconds(600);

    gw.tenant("eur")
        .header("X-Okapi-Token", keycloak.token(publicUrl, "eur", USER, "s1", exp))
        .get("/things")
        .then()
        .statusCode(200);
    for (String other :
        new String[] {
          keycloak.url(), "https://keycloak.example.org.evil.net", "http://localhost"
        }) {
      gw.tenant("eur")
          .header("X-Okapi-Token", keycloak.token(other, "eur", USER, "s1", exp))
          .get("/things")
          .then()
          .statusCode(401)
          .body(containsString("its iss differs"));
    }
    assertThat(keycloak.decisions()).isEqualTo(1);
  }

  /** As an attacker: no X-Okapi-User-Id of the client's reaches a module, with a token or none. */
  @Test
  void clientsXOkapiUserId_neverReachesTheModule() {
    gw.tenant("eur").header("X-Okapi-User-Id", "victim").get("/open").then().statusCode(200);
    gw.tenant("eur")
        .header("X-Okapi-User-Id", "victim")
        .header("X-Okapi-Token", token("s1"))
        .get("/things")
        .then()
        .statusCode(200);

    assertThat(things.drain())
        .extracting(r -> r.header("X-Okapi-User-Id"))
        .containsExactly(null, USER);
  }

  /**
   * As an attacker: a path far past the request line's limit is refused before routing; one within
   * it that matches {@code /things/{id}} is decided as {@code /things/{id}#GET}: the permission
   * Keycloak is asked is the handler's static path, never the client's path.
   */
  @Test
  void hugePath_refusedBeforeRouting_theDecisionNamesTheStaticPathOnly() {
    // over the request line's 4,096 bytes, yet small enough to be written whole before the
    // gateway answers 414 and closes: a longer one can meet the close mid-write (broken pipe)
    gw.tenant("eur")
        .header("X-Okapi-Token", token("s1"))
        .get("/things/" + "x".repeat(8_000))
        .then()
        .statusCode(414);
    gw.tenant("eur")
        .header("X-Okapi-Token", token("s1"))
        .get("/things/" + "y".repeat(3_000))
        .then()
        .statusCode(200);

    assertThat(keycloak.asked)
        .extracting(FakeKeycloak.Asked::permission)
        .containsExactly("/things/{id}#GET");
  }

  /** A form's fields, decoded, in the order sent. */
  private static List<String> fields(String form) {
    return Arrays.stream(form.split("&"))
        .map(f -> URLDecoder.decode(f, StandardCharsets.UTF_8))
        .toList();
  }

  static String uuid() {
    return UUID.randomUUID().toString();
  }
}
