package io.okapigw.authtoken.token;

import static io.okapigw.authtoken.TestModule.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.store.UserRecord;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Token issue and verification, and the signing key file. */
@ExtendWith(VertxExtension.class)
class TokenServiceTest {
  @TempDir Path dir;
  private final MutableClock clock = MutableClock.ofNow();
  private final UserRecord alice = new UserRecord("diku", "u1", "alice", true, null, List.of());
  private Vertx vertx;
  private SigningKey key;
  private TokenService tokens;

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    key = await(SigningKey.load(vertx, dir.resolve("keys").resolve("signing.key")));
    tokens = new TokenService(key, clock, TokenOptions.defaults());
  }

  private static void assert401(Runnable verify, String message) {
    assertThatThrownBy(verify::run)
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401))
        .hasMessageContaining(message);
  }

  @Test
  void accessToken_verifies_withItsClaims() {
    TokenService.IssuedToken issued = tokens.issueAccess(alice, "s1");
    TokenClaims claims = tokens.verify(issued.token());
    assertThat(claims)
        .isEqualTo(
            new TokenClaims(
                "access",
                "alice",
                "u1",
                "diku",
                "s1",
                List.of(),
                clock.instant().plus(Duration.ofMinutes(10))));
    assertThat(issued.expiresAt()).isEqualTo(claims.expiresAt());
  }

  @Test
  void moduleToken_isDeterministic_sortedPermissions_noIssuedAt() {
    TokenClaims caller = tokens.verify(tokens.issueAccess(alice, "s1").token());
    String first = tokens.moduleToken(caller, List.of("b", "a", "b"));
    clock.advance(Duration.ofMinutes(1));
    assertThat(tokens.moduleToken(caller, List.of("a", "b"))).isEqualTo(first);
    JsonObject payload = ForgedTokens.payload(first);
    assertThat(payload.getJsonArray("extra_permissions")).containsExactly("a", "b");
    assertThat(payload.fieldNames())
        .containsExactly("sub", "user_id", "tenant", "type", "sid", "extra_permissions", "exp");
    assertThat(tokens.verify(first).extraPermissions()).containsExactly("a", "b");
  }

  @Test
  void anonymousToken_stableWithinTheMinute_andValidAtLeastTheTtl() {
    clock.advance(Duration.ofSeconds(60 - clock.instant().getEpochSecond() % 60));
    String first = tokens.anonymousToken("diku", List.of());
    clock.advance(Duration.ofSeconds(59));
    assertThat(tokens.anonymousToken("diku", List.of())).isEqualTo(first);
    TokenClaims claims = tokens.verify(first);
    assertThat(claims.userId()).isNull();
    assertThat(claims.subject()).isEqualTo(TokenService.ANONYMOUS);
    assertThat(claims.expiresAt()).isAfterOrEqualTo(clock.instant().plus(Duration.ofMinutes(10)));
    clock.advance(Duration.ofSeconds(1));
    assertThat(tokens.anonymousToken("diku", List.of())).isNotEqualTo(first);
  }

  @Test
  void anonymousTokenWithLifetime_expiresAfterIt_cappedAtTheTtl() {
    String token =
        tokens.anonymousToken("supertenant", List.of("p.b", "p.a"), Duration.ofSeconds(60));
    TokenClaims claims = tokens.verify(token);
    assertThat(claims)
        .isEqualTo(
            new TokenClaims(
                "module",
                TokenService.ANONYMOUS,
                null,
                "supertenant",
                null,
                List.of("p.a", "p.b"),
                clock.instant().plusSeconds(60)));
    String capped = tokens.anonymousToken("supertenant", List.of(), Duration.ofHours(1));
    assertThat(tokens.verify(capped).expiresAt())
        .as("capped at the TTL")
        .isEqualTo(clock.instant().plus(Duration.ofMinutes(10)));
    clock.advance(Duration.ofSeconds(59));
    assertThat(tokens.verify(token).tenant()).isEqualTo("supertenant");
    clock.advance(Duration.ofSeconds(1));
    assert401(() -> tokens.verify(token), "expired");
  }

  @Test
  void verify_atExpiry_401_evenWhenVerifiedBefore() {
    String token = tokens.issueAccess(alice, "s1").token();
    tokens.verify(token);
    clock.advance(Duration.ofMinutes(10).minusSeconds(1));
    assertThat(tokens.verify(token).userId()).isEqualTo("u1");
    clock.advance(Duration.ofSeconds(1));
    assert401(() -> tokens.verify(token), "expired");
  }

  @Test
  void verify_afterKeyRotation_oldTokensRefused_newOnesAccepted() {
    String old = tokens.issueAccess(alice, "s1").token();
    TokenClaims caller = tokens.verify(old);
    String oldModuleToken = tokens.moduleToken(caller, List.of("m"));
    await(key.rotate());
    assert401(() -> tokens.verify(oldModuleToken), "signature");
    assertThat(tokens.moduleToken(caller, List.of("m"))).isNotEqualTo(oldModuleToken);
    assert401(() -> tokens.verify(old), "signature");
    assertThat(tokens.verify(tokens.issueAccess(alice, "s1").token()).userId()).isEqualTo("u1");
  }

  @Test
  void signingKey_rotatedByAnotherInstance_pickedUpOnReload() {
    Path file = dir.resolve("keys").resolve("signing.key");
    SigningKey other = await(SigningKey.load(vertx, file));
    TokenService otherTokens = new TokenService(other, clock, TokenOptions.defaults());
    String token = tokens.issueAccess(alice, "s1").token();
    assertThat(otherTokens.verify(token).userId()).isEqualTo("u1");
    await(key.rotate());
    assertThat(await(other.reload())).isTrue();
    assertThat(await(other.reload())).isFalse();
    assert401(() -> otherTokens.verify(token), "signature");
  }

  @Test
  void signingKey_fileIsPrivateAndReusedAtNextLoad() throws Exception {
    Path file = dir.resolve("keys").resolve("signing.key");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(ForgedTokens.key(file)).hasSize(32);
    String token = tokens.issueAccess(alice, "s1").token();
    SigningKey again = await(SigningKey.load(vertx, file));
    assertThat(new TokenService(again, clock, TokenOptions.defaults()).verify(token).userId())
        .isEqualTo("u1");
  }

  @Test
  void signingKey_tooShortOrNotBase64_failsNamingTheSetting() throws Exception {
    Path shortKey = Files.writeString(dir.resolve("short.key"), "AAAA");
    assertThatThrownBy(() -> await(SigningKey.load(vertx, shortKey)))
        .hasMessageContaining("--signing-key-file")
        .hasMessageContaining("256 bits");
    Path garbage = Files.writeString(dir.resolve("garbage.key"), "not base64 !!!");
    assertThatThrownBy(() -> await(SigningKey.load(vertx, garbage)))
        .hasMessageContaining("--signing-key-file");
  }

  /** An access token's claims, {@code exp} left out. */
  private static JsonObject accessClaims() {
    return new JsonObject()
        .put("sub", "alice")
        .put("user_id", "u1")
        .put("tenant", "diku")
        .put("type", "access")
        .put("sid", "s1");
  }

  @Test
  void verify_claimsOfTheWrongShape_401() throws Exception {
    byte[] k = ForgedTokens.key(dir.resolve("keys").resolve("signing.key"));
    long exp = clock.instant().getEpochSecond() + 60;
    JsonObject good = accessClaims().put("exp", exp);
    assertThat(tokens.verify(ForgedTokens.hmac("HS256", "HmacSHA256", k, good)).userId())
        .isEqualTo("u1");
    assert401(
        () ->
            tokens.verify(
                ForgedTokens.hmac("HS256", "HmacSHA256", k, good.copy().put("type", "refresh"))),
        "type");
    assert401(
        () ->
            tokens.verify(
                ForgedTokens.hmac("HS256", "HmacSHA256", k, good.copy().put("tenant", 5))),
        "tenant");
    JsonObject noSid = good.copy();
    noSid.remove("sid");
    assert401(() -> tokens.verify(ForgedTokens.hmac("HS256", "HmacSHA256", k, noSid)), "sid");
    assert401(
        () ->
            tokens.verify(
                ForgedTokens.hmac(
                    "HS256",
                    "HmacSHA256",
                    k,
                    good.copy().put("type", "module").put("extra_permissions", "x"))),
        "extra_permissions");
  }

  /**
   * RFC 7519: {@code exp}, {@code nbf} and {@code iat} are NumericDates, JSON numbers. JJWT also
   * reads a string ({@code "exp": "1750000000"}) as a date, which a gateway's cache, reading only
   * numbers, would not bound its entries by.
   */
  @Test
  void verify_dateClaimsThatAreNotNumbers_401() throws Exception {
    byte[] k = ForgedTokens.key(dir.resolve("keys").resolve("signing.key"));
    long exp = clock.instant().getEpochSecond() + 60;
    JsonObject good = accessClaims();
    for (JsonObject claims :
        List.of(
            good.copy().put("exp", Long.toString(exp)),
            good.copy().put("exp", exp).put("nbf", Long.toString(exp - 120)),
            good.copy().put("exp", exp).put("iat", Long.toString(exp - 120)))) {
      assert401(
          () -> tokens.verify(ForgedTokens.hmac("HS256", "HmacSHA256", k, claims)),
          "must be a number");
    }
  }

  @Test
  void verify_tooLong_401BeforeParsing() {
    assert401(() -> tokens.verify("a".repeat(8193)), "too large");
  }
}
