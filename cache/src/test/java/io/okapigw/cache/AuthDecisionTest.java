package io.okapigw.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuthDecisionTest {

  private final String moduleToken = Jwt.withoutExp("module");
  private final String otherToken = Jwt.withoutExp("mod-users");

  @Test
  void grant_2xx_isGrantNotDenial() {
    AuthDecision decision = AuthDecision.grant(202, moduleToken, "u1", "[\"a\"]", null);

    assertThat(decision.isGrant()).isTrue();
    assertThat(decision.isDenial()).isFalse();
    assertThat(decision.moduleTokens()).isEmpty();
    assertThat(decision.body()).isEmpty();
    assertThat(decision.expiresAt()).isNull();
    assertThat(decision.stale()).isFalse();
  }

  @Test
  void grant_non2xx_rejected() {
    assertThatThrownBy(() -> AuthDecision.grant(403, "", "", "", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a grant needs a 2xx status, was 403");
  }

  @Test
  void refusal_401And403_areDenials() {
    assertThat(AuthDecision.refusal(401, "expired", "text/plain").isDenial()).isTrue();
    assertThat(AuthDecision.refusal(403, null, null).isDenial()).isTrue();
    assertThat(AuthDecision.refusal(500, null, null).isDenial()).isFalse();
    assertThat(AuthDecision.refusal(500, null, null).isGrant()).isFalse();
  }

  @Test
  void refusal_2xx_rejected() {
    assertThatThrownBy(() -> AuthDecision.refusal(200, "", ""))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void constructor_statusOutOfRange_rejected() {
    assertThatThrownBy(() -> AuthDecision.refusal(99, "", ""))
        .hasMessage("status must be 100 to 599, was 99");
    assertThatThrownBy(() -> AuthDecision.refusal(600, "", ""))
        .hasMessage("status must be 100 to 599, was 600");
  }

  @Test
  void constructor_nullStrings_becomeEmpty() {
    AuthDecision decision = new AuthDecision(202, null, null, null, null, null, null, null, false);

    assertThat(decision.moduleToken()).isEmpty();
    assertThat(decision.userId()).isEmpty();
    assertThat(decision.permissions()).isEmpty();
    assertThat(decision.contentType()).isEmpty();
  }

  @Test
  void moduleTokens_copiedAndImmutable() {
    Map<String, String> tokens = new HashMap<>(Map.of("_", moduleToken));
    AuthDecision decision = AuthDecision.grant(202, moduleToken, "u1", "[]", tokens);

    tokens.put("mod-users", otherToken);

    assertThat(decision.moduleTokens()).containsOnlyKeys("_");
    assertThatThrownBy(() -> decision.moduleTokens().put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void toString_neverContainsTokens() {
    AuthDecision decision =
        AuthDecision.grant(
            202, moduleToken, "u1", "[\"a\"]", Map.of("_", moduleToken, "mod-users", otherToken));

    assertThat(decision.toString())
        .doesNotContain(moduleToken)
        .doesNotContain(otherToken)
        .contains("status=202", "userId=u1", "mod-users", "moduleToken=sha256:");
  }
}
