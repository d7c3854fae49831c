package io.okapigw.core.eureka;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A realm's signing keys through an outage, a rotation and a realm Keycloak lacks, with the default
 * {@code eureka.jwks-refetch-min} (and {@code eureka.jwks-retry} far away, so no retry falls inside
 * a test): a made-up key id never costs a signed-in user the good keys, nor a genuine new key its
 * prompt fetch; a missing realm is asked once, not per request. The rules one by one, on a fake
 * clock: {@code RealmKeysTest}.
 */
class EurekaKeysTest {

  private static final String USER = "8b7f486d-e389-42bc-a056-e54dfafd585b";

  private final Vertx keycloakVertx = Vertx.vertx();
  private final FakeKeycloak keycloak = new FakeKeycloak(keycloakVertx);
  private GatewayFixture gw;

  @BeforeEach
  void start() {
    GatewayOptions options =
        GatewayOptions.defaults(0)
            .withEureka(
                EurekaOptions.from(
                    Settings.of(
                        Map.of("eureka.keycloak-url", keycloak.url(), "eureka.jwks-retry", "1h"))));
    gw = new GatewayFixture(options);
    TestModule things =
        TestModule.start(
            gw.vertx(), router -> router.route().handler(ctx -> ctx.response().end("things")));
    gw.createEurekaTenant("eur");
    gw.install(
        "eur",
        module("mod-things-1.0.0", "things", handler("GET", "/things", "things.collection.get")),
        things.url());
    keycloak.granted.add("/things#GET");
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

  private String forged() {
    return keycloak.forged("eur", USER, "s1", Instant.now().plusSeconds(600), "made-up-kid");
  }

  private int get(String token) {
    return gw.tenant("eur").header("X-Okapi-Token", token).get("/things").statusCode();
  }

  @Test
  void keysEndpointFailing_madeUpKid_goodKeysKept_signedInUserServed() {
    String good = token("s1");
    assertThat(get(good)).isEqualTo(200);
    keycloak.certsStatus = 503;

    assertThat(get(forged())).as("a made-up kid while the keys cannot be read").isEqualTo(503);
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      statuses.add(get(good));
    }

    assertThat(statuses).as("the signed-in user's requests").containsOnly(200);
    assertThat(keycloak.keyFetches.get()).as("fetches: the first, the made-up kid's").isEqualTo(2);
  }

  @Test
  void madeUpKidJustBeforeARotation_genuineNewKeysTokenServed() {
    assertThat(get(token("s1"))).isEqualTo(200);
    assertThat(get(forged())).isEqualTo(401);

    keycloak.rotate("k2");

    assertThat(get(token("s2"))).as("a token of the new key, right after").isEqualTo(200);
    assertThat(keycloak.keyFetches.get()).isEqualTo(3);
  }

  @Test
  void eurekaTenantWithoutARealm_keysAskedOnce_notPerRequest() {
    keycloak.missingRealms.add("norealm");
    gw.createEurekaTenant("norealm");
    gw.enable("norealm", "mod-things-1.0.0");
    String token = keycloak.token("norealm", USER, "s1", Instant.now().plusSeconds(600));

    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      statuses.add(gw.tenant("norealm").header("X-Okapi-Token", token).get("/things").statusCode());
    }

    assertThat(keycloak.keyFetchesOf.get("norealm").get()).as("fetches of its keys").isEqualTo(1);
    assertThat(statuses).containsOnly(401);
  }
}
