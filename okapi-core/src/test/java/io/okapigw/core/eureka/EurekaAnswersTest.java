package io.okapigw.core.eureka;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.TestModule.Recorded;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 46: an Eureka tenant's answers and its module's headers beside folio-module-sidecar's
 * source (v. abc4729, MODSIDECAR-199): where the sidecar is right, as it; where the gateway chooses
 * otherwise (503 with {@code Retry-After} for a Keycloak that cannot be reached, where the sidecar
 * answers 403), as docs/protocol.md says.
 */
class EurekaAnswersTest {

  private static final String USER = "8b7f486d-e389-42bc-a056-e54dfafd585b";
  private static final String THINGS = "mod-things-1.0.0";

  private final Vertx keycloakVertx = Vertx.vertx();
  private final FakeKeycloak keycloak = new FakeKeycloak(keycloakVertx);
  private GatewayFixture gw;
  private TestModule things;

  @BeforeEach
  void start() {
    gw =
        new GatewayFixture(
            GatewayOptions.defaults(0)
                .withEureka(
                    EurekaOptions.from(
                        Settings.of(Map.of("eureka.keycloak-url", keycloak.url())))));
    gw.createEurekaTenant("eur");
    gw.createTenant("diku");
    things =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx -> {
                          // a module echoing the signature it got must not hand it to the client
                          String signature = ctx.request().getHeader(SidecarHeaders.SIGNATURE);
                          if (signature != null) {
                            ctx.response().putHeader(SidecarHeaders.SIGNATURE, signature);
                          }
                          ctx.response().end("things");
                        }));
    JsonObject descriptor =
        module(
            THINGS,
            "things",
            handler("GET", "/things", "things.collection.get"),
            handler("GET", "/other", "things.other.get"),
            handler("*", "/star", "things.star.all"));
    gw.install("eur", descriptor, things.url());
    gw.enable("diku", THINGS);
    keycloak.granted.add("/things#GET");
    keycloak.granted.add("/other#GET");
    keycloak.invalidResources.add("/star#GET");
  }

  @AfterEach
  void stop() {
    gw.close();
    keycloak.close();
    keycloakVertx.close().await();
  }

  private String token() {
    return keycloak.token("eur", USER, "s1", Instant.now().plusSeconds(600));
  }

  private static JsonObject error(Response answer) {
    return new JsonObject(answer.asString()).getJsonArray("errors").getJsonObject(0);
  }

  @Test
  void keycloakUnreachable_uncachedKey_503RetryAfter_theSidecarsErrorBody() {
    String token = token();
    gw.tenant("eur")
        .header("Authorization", "Bearer " + token)
        .get("/things")
        .then()
        .statusCode(200);
    keycloak.decisionsCut = true;

    Response answer = gw.tenant("eur").header("Authorization", "Bearer " + token).get("/other");

    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(answer.header("Retry-After")).isEqualTo("1");
    assertThat(answer.contentType()).startsWith("application/json");
    JsonObject error = error(answer);
    assertThat(error.getString("type")).isEqualTo("ServiceUnavailableException");
    assertThat(error.getString("code")).isEqualTo("authorization_error");
    assertThat(error.getString("message")).contains("Keycloak");
    assertThat(new JsonObject(answer.asString()).getInteger("total_records")).isEqualTo(1);
    assertThat(things.drain()).as("the module got only the first call").hasSize(1);
  }

  @Test
  void keycloakAnswers500_503RetryAfter_theSidecarsErrorBody() {
    keycloak.decisionStatus = 500;

    gw.tenant("eur")
        .header("Authorization", "Bearer " + token())
        .get("/things")
        .then()
        .statusCode(503)
        .header("Retry-After", "1")
        .body("errors[0].type", equalTo("ServiceUnavailableException"))
        .body("errors[0].code", equalTo("authorization_error"))
        .body("errors[0].message", containsString("Keycloak answered 500"));
  }

  /**
   * The sidecar's {@code KeycloakAuthorizationFilter.buildUnexpectedStatusError}: Keycloak's status
   * passed on, the body its {@code ErrorHandler}'s ({@code
   * KeycloakUnhandledAuthorizationException}, {@code authorization_error}); Keycloak's own body is
   * not passed on, its {@code error} named.
   */
  @Test
  void handlerWithMethodsStar_keycloak400InvalidResource_passedOnAsTheSidecar() {
    Response answer = gw.tenant("eur").header("Authorization", "Bearer " + token()).get("/star");

    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(answer.contentType()).startsWith("application/json");
    JsonObject error = error(answer);
    assertThat(error.getString("type")).isEqualTo("KeycloakUnhandledAuthorizationException");
    assertThat(error.getString("code")).isEqualTo("authorization_error");
    assertThat(error.getString("message"))
        .startsWith("Authorization service error")
        .contains("400 (invalid_resource)")
        .doesNotContain("does not exist");
    assertThat(things.drain()).isEmpty();
  }

  @Test
  void systemOrGatewayErrors_ofAnEurekaTenant_haveTheSidecarsBody() {
    // no token for a handler that requires permissions: the sidecar's UnauthorizedException
    gw.tenant("eur")
        .get("/things")
        .then()
        .statusCode(401)
        .contentType(startsWith("application/json"))
        .body("errors[0].type", equalTo("UnauthorizedException"))
        .body("errors[0].code", equalTo("authorization_error"))
        .body("total_records", equalTo(1));
    // the keys' endpoint failing for a realm not fetched yet: 503 with the sidecar's body
    keycloak.certsStatus = 503;
    gw.tenant("eur")
        .header("Authorization", "Bearer " + token())
        .get("/things")
        .then()
        .statusCode(503)
        .header("Retry-After", "1")
        .contentType(startsWith("application/json"))
        .body("errors[0].message", containsString("Keycloak"));
  }

  /**
   * The headers the module gets, field by field against the sidecar's source: {@code
   * RequestForwardingService.filterHeaders} (every client header but {@code User-Agent} and {@code
   * Priority}), {@code .forwardRequest} ({@code X-Okapi-Request-Id} set), {@code
   * KeycloakJwtFilter.findAccessToken} ({@code X-Okapi-Token} from {@code Authorization}, which is
   * removed), {@code RoutingUtils.setUserIdHeader} ({@code X-Okapi-User-Id}), {@code
   * SidecarSignatureFilter} ({@code X-Okapi-Sidecar-Signature}, a Base64 SHA-256), and none of
   * Okapi's request headers the sidecar never writes. {@code X-Okapi-Url} is the gateway's, where
   * modules call back (behind the sidecar, their own sidecar's URL is configured in them).
   */
  @Test
  void moduleGetsTheSidecarsHeaders_fieldByField_okapiTenantUnchanged() {
    String token = token();

    Response answer =
        gw.tenant("eur")
            .header("Authorization", "Bearer " + token)
            .header("User-Agent", "mgr-tenant-entitlements-client")
            .header("Priority", "u=0, i")
            .header("Accept", "application/json")
            .header("X-Custom", "kept")
            .header(SidecarHeaders.SIGNATURE, "a client's forgery")
            .get("/things");

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.header(SidecarHeaders.SIGNATURE)).as("never to the client").isNull();
    Recorded got = things.take();
    assertThat(got.header("User-Agent")).as("filterHeaders removes User-Agent").isNull();
    assertThat(got.header("Priority")).as("filterHeaders removes Priority").isNull();
    assertThat(got.header("Accept")).isEqualTo("application/json");
    assertThat(got.header("X-Custom")).isEqualTo("kept");
    assertThat(got.header("Authorization")).isNull();
    assertThat(got.header("X-Okapi-Token")).isEqualTo(token);
    assertThat(got.header("X-Okapi-User-Id")).isEqualTo(USER);
    assertThat(got.header("X-Okapi-Tenant")).isEqualTo("eur");
    assertThat(got.header("X-Okapi-Request-Id")).isNotBlank();
    assertThat(got.header("X-Okapi-Url")).isEqualTo(gw.url());
    String signature = got.header(SidecarHeaders.SIGNATURE);
    assertThat(signature).isNotEqualTo("a client's forgery");
    assertThat(Base64.getDecoder().decode(signature)).hasSize(32);
    assertThat(got.headers().getAll(SidecarHeaders.SIGNATURE)).hasSize(1);
    for (String okapiOnly :
        new String[] {
          "X-Okapi-request-timestamp",
          "X-Okapi-request-method",
          "X-Okapi-request-ip",
          "X-Okapi-Match-Path-Pattern"
        }) {
      assertThat(got.header(okapiOnly)).as(okapiOnly + ": the sidecar never writes it").isNull();
    }

    gw.tenant("diku").header("User-Agent", "okapi-client").get("/things").then().statusCode(200);
    Recorded okapi = things.take();
    assertThat(okapi.header("User-Agent"))
        .as("an Okapi tenant: as Okapi")
        .isEqualTo("okapi-client");
    assertThat(okapi.header("X-Okapi-Match-Path-Pattern")).isEqualTo("/things");
    assertThat(okapi.header("X-Okapi-request-timestamp")).isNotBlank();
    assertThat(okapi.header(SidecarHeaders.SIGNATURE)).isNull();
  }

  @Test
  void signature_isTheSidecarsForm_base64Sha256OfMillis() {
    // SidecarSignatureService.generateSignature: SHA-256 of String.valueOf(currentTimeMillis())
    assertThat(SidecarHeaders.generate(0))
        .isEqualTo("X+zrZv/IbzjZUnhsbWlsecLbwjndTpG0ZynXOif7V+k=");
    assertThat(new JsonArray().add(SidecarHeaders.signature()).getString(0)).hasSize(44);
  }
}
