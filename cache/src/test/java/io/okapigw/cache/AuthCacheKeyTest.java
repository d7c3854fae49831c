package io.okapigw.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AuthCacheKeyTest {

  private final String token = Jwt.withoutExp("secret-user");

  @Test
  void toString_neverContainsToken() {
    AuthCacheKey key = new AuthCacheKey("diku", "GET", "/users/{id}", "u1", token);

    String text = key.toString();

    assertThat(text)
        .doesNotContain(token)
        .doesNotContain(token.substring(token.indexOf('.') + 1, token.lastIndexOf('.')))
        .contains("tenant=diku", "method=GET", "pathPattern=/users/{id}", "userId=u1")
        .containsPattern("token=sha256:[0-9a-f]{8}]");
  }

  @Test
  void toString_sameTokenSameFingerprintDifferentTokenDifferent() {
    String a = new AuthCacheKey("diku", "GET", "/p", "", "token-a").toString();
    String a2 = new AuthCacheKey("diku", "GET", "/p", "", "token-a").toString();
    String b = new AuthCacheKey("diku", "GET", "/p", "", "token-b").toString();

    assertThat(a).isEqualTo(a2).isNotEqualTo(b);
  }

  @Test
  void toString_noToken_saysNone() {
    assertThat(new AuthCacheKey("diku", "GET", "/p", "", "").toString()).contains("token=none");
  }

  @Test
  void constructor_nullUserIdAndToken_becomeEmpty() {
    AuthCacheKey key = new AuthCacheKey("diku", "GET", "/p", null, null);

    assertThat(key.userId()).isEmpty();
    assertThat(key.token()).isEmpty();
    assertThat(key).isEqualTo(new AuthCacheKey("diku", "GET", "/p", "", ""));
  }

  @Test
  void constructor_nullTenantMethodOrPattern_throws() {
    assertThatThrownBy(() -> new AuthCacheKey(null, "GET", "/p", "", ""))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("tenant");
    assertThatThrownBy(() -> new AuthCacheKey("diku", null, "/p", "", ""))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("method");
    assertThatThrownBy(() -> new AuthCacheKey("diku", "GET", null, "", ""))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("pathPattern");
  }

  @Test
  void equals_allComponentsEqual_equalWithSameHash() {
    AuthCacheKey a = new AuthCacheKey("diku", "GET", "/p", "u", "t");
    AuthCacheKey b = new AuthCacheKey(new String("diku"), "GET", "/p", "u", new String("t"));

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(new AuthCacheKey("diku", "GET", "/p", "u", "t2"));
    assertThat(a).isNotEqualTo(new AuthCacheKey("diku", "GET", "/p", "", "t"));
  }
}
