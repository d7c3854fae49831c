package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.it.hostile.Backend.Recorded;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Who a request is, as a hostile client would blur it: the token in a second {@code Cookie} line
 * (an HTTP/2 front end splits cookies so), identity and result headers of its own making, key parts
 * too large to cache, a token whose {@code exp} is a string. Whatever one client sends, a request
 * without a token is decided as one without a token, and modules hear only what the gateway vouches
 * for.
 */
@ExtendWith(HostileGateway.Resolver.class)
class CredentialsTest {

  private static final String DIKU = "X-Okapi-Tenant: diku\r\n";

  private static HostileGateway gw;

  @BeforeAll
  static void start(HostileGateway gateway) {
    gw = gateway;
  }

  @BeforeEach
  void forget() {
    gw.backend.drain();
  }

  private static RawResponse send(int port, String target, String headers) throws IOException {
    try (RawConnection c = RawConnection.open(port)) {
      return c.send("GET " + target + " HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n").response();
    }
  }

  /**
   * The high finding: the gateway read the first {@code Cookie} line only and cached the decision
   * under "no token", while the auth module, given every line, decided as the cookie's user; from
   * then on requests without any token were that user.
   */
  @Test
  void tokenInASecondCookieLine_requestsWithoutTokenStayTokenless() throws IOException {
    RawResponse withCookie =
        send(
            gw.port(),
            "/secure/x",
            DIKU + "Cookie: a=b\r\nCookie: folioAccessToken=" + gw.aliceToken() + "\r\n");
    assertThat(withCookie.status()).as(withCookie.toString()).isEqualTo(200);
    RawResponse tokenless = send(gw.port(), "/secure/x", DIKU);
    assertThat(tokenless.status()).as(tokenless.toString()).isEqualTo(401);
    assertThat(tokenless.text()).doesNotContain("secret");
  }

  @Test
  void adminToken_inASecondCookieLine_adminApiStaysClosedToTokenlessCalls() throws IOException {
    RawResponse withCookie =
        send(
            gw.adminPort(),
            "/_/proxy/tenants",
            "Cookie: a=b\r\nCookie: folioAccessToken=" + gw.superToken() + "\r\n");
    assertThat(withCookie.status()).as(withCookie.toString()).isEqualTo(200);
    RawResponse tokenless = send(gw.adminPort(), "/_/proxy/tenants", "");
    assertThat(tokenless.status()).as(tokenless.toString()).isEqualTo(401);
  }

  @Test
  void clientsUserIdAndPermissions_neverReachAModule_withOrWithoutAuthModule() throws IOException {
    String claims = "X-Okapi-User-Id: forged-user\r\nX-Okapi-Permissions: [\"okapi.all\"]\r\n";
    assertThat(send(gw.port(), "/s/ping", DIKU + claims).status()).isEqualTo(200);
    assertThat(
            send(gw.port(), "/s/ping", "X-Okapi-Tenant: " + HostileGateway.PLAIN + "\r\n" + claims)
                .status())
        .isEqualTo(200);
    List<Recorded> forwarded = gw.forwarded();
    assertThat(forwarded).hasSize(2);
    for (Recorded r : forwarded) {
      assertThat(r.header("X-Okapi-User-Id")).as(r.uri()).doesNotContain("forged-user");
      assertThat(r.header("X-Okapi-Permissions")).as(r.uri()).doesNotContain("[\"okapi.all\"]");
    }
  }

  @Test
  void clientsResultHeaders_neverReachFilters_onlyTheGatewaysOwn() throws IOException {
    String claims =
        "X-Okapi-Handler-Result: 999\r\nX-Okapi-Auth-Result: 999\r\n"
            + "X-Okapi-Handler-Headers: {\"forged\":\"1\"}\r\nX-Okapi-Auth-Headers: {}\r\n";
    assertThat(send(gw.port(), "/f/x", DIKU + claims).status()).isEqualTo(200);
    List<Recorded> calls = forwardedWithPostFilter();
    assertThat(calls).as("pre filter, handler, post filter").hasSize(3);
    for (Recorded r : calls) {
      boolean post = isPostFilterCall(r);
      assertThat(r.header("X-Okapi-Handler-Result"))
          .as(r.header("X-Okapi-Filter").toString())
          .isEqualTo(post ? List.of("200") : List.of());
      assertThat(r.header("X-Okapi-Auth-Result")).isEmpty();
      assertThat(String.join(",", r.header("X-Okapi-Handler-Headers"))).doesNotContain("forged");
    }
  }

  /**
   * Post filters are called after the answer is relayed: waits for the call (at most a minute, a
   * hang guard).
   */
  private static List<Recorded> forwardedWithPostFilter() throws IOException {
    List<Recorded> calls = new ArrayList<>(gw.forwarded());
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (calls.stream().noneMatch(CredentialsTest::isPostFilterCall)
        && System.nanoTime() < deadline) {
      calls.addAll(gw.forwarded());
    }
    return calls;
  }

  private static boolean isPostFilterCall(Recorded r) {
    return r.header("X-Okapi-Filter").stream().anyMatch(f -> f.startsWith("post"));
  }

  /**
   * The cache held an entry per distinct user id: 300 tokenless requests with distinct 15 KB {@code
   * X-Okapi-User-Id} values made 300 entries of 14-24 KiB each, pushing others out.
   */
  @Test
  void hugeDistinctUserIds_refusedBeforeTheCache_noEntryEach() throws IOException {
    long before = cacheSize();
    for (int i = 0; i < 50; i++) {
      String userId = i + "-" + "u".repeat(15_000);
      RawResponse r = send(gw.port(), "/s/ping", DIKU + "X-Okapi-User-Id: " + userId + "\r\n");
      assertThat(r.status()).as(r.toString()).isEqualTo(431);
      assertThat(r.text()).contains("X-Okapi-User-Id");
    }
    assertThat(cacheSize() - before).as("cache entries added").isLessThan(5);
  }

  private static long cacheSize() {
    return new JsonObject(gw.admin().get("/_/proxy/auth-cache").then().extract().asString())
        .getLong("size");
  }

  /**
   * RFC 7519's {@code exp} is a number; the authtoken module read {@code "exp": "<seconds>"} as a
   * date while the gateway's cache, reading numbers only, let the decision live for its whole TTL.
   */
  @Test
  void tokenWithStringExp_refused() throws Exception {
    JsonObject alice = payload(gw.aliceToken());
    JsonObject forged =
        alice.copy().put("exp", Long.toString(alice.getLong("exp"))).put("sid", "forged-session");
    String token = sign(forged);
    RawResponse r = send(gw.port(), "/secure/x", DIKU + "X-Okapi-Token: " + token + "\r\n");
    assertThat(r.status()).as(r.toString()).isEqualTo(401);
  }

  private static JsonObject payload(String token) {
    return new JsonObject(
        new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8));
  }

  /** Signs {@code claims} with the authtoken module's own key, as an insider's bug would. */
  private static String sign(JsonObject claims) throws Exception {
    byte[] key =
        Base64.getDecoder().decode(Files.readString(gw.dir().resolve("signing.key")).trim());
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String input =
        b64.encodeToString("{\"alg\":\"HS256\"}".getBytes(StandardCharsets.UTF_8))
            + "."
            + b64.encodeToString(claims.encode().getBytes(StandardCharsets.UTF_8));
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return input + "." + b64.encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
  }
}
