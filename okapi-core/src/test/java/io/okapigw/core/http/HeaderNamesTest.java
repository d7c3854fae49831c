package io.okapigw.core.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.MultiMap;
import io.vertx.core.http.impl.headers.HeadersMultiMap;
import org.junit.jupiter.api.Test;

class HeaderNamesTest {

  private final HeaderNames names = HeaderNames.of("Connection", "TE", "X-Okapi-Token");

  @Test
  void contains_ignoresCase() {
    assertThat(names.contains("connection")).isTrue();
    assertThat(names.contains("CONNECTION")).isTrue();
    assertThat(names.contains("te")).isTrue();
    assertThat(names.contains("x-okapi-token")).isTrue();
  }

  @Test
  void contains_otherNamesOfTheSameOrAnotherLength_false() {
    assertThat(names.contains("Connexion")).isFalse();
    assertThat(names.contains("Te2")).isFalse();
    assertThat(names.contains("X-Okapi-Tokens")).isFalse();
    assertThat(names.contains("")).isFalse();
    assertThat(names.contains("A-header-name-longer-than-any-in-the-set")).isFalse();
  }

  @Test
  void with_addsNames() {
    HeaderNames more = names.with("Authorization");
    assertThat(more.contains("authorization")).isTrue();
    assertThat(more.contains("te")).isTrue();
    assertThat(names.contains("authorization")).isFalse();
  }

  @Test
  void copyAllBut_dropsTheSetAndWhatConnectionNames_keepsOrderAndRepeats() {
    MultiMap from =
        HeadersMultiMap.httpHeaders()
            .add("Accept", "a/b")
            .add("connection", "keep-alive, X-Secret")
            .add("x-secret", "s")
            .add("x-okapi-token", "t")
            .add("X-Okapi-Tenant", "diku")
            .add("Accept", "c/d");
    MultiMap to = HeadersMultiMap.httpHeaders().add("X-Already", "1");
    names.copyAllBut(from, to);
    assertThat(to.names()).containsExactlyInAnyOrder("X-Already", "Accept", "X-Okapi-Tenant");
    assertThat(to.getAll("accept")).containsExactly("a/b", "c/d");
  }

  @Test
  void copyAllBut_fromAnyMultiMap() {
    MultiMap from = MultiMap.caseInsensitiveMultiMap().add("TE", "trailers").add("Accept", "x");
    MultiMap to = MultiMap.caseInsensitiveMultiMap();
    names.copyAllBut(from, to);
    assertThat(to.names()).containsExactly("Accept");
  }

  @Test
  void notForwarded_hopByHopAndAuthOnly() {
    for (String name :
        new String[] {
          "connection",
          "keep-alive",
          "transfer-encoding",
          "upgrade",
          "host",
          "expect",
          "x-okapi-module-tokens",
          "x-okapi-filter",
          "x-okapi-permissions-required"
        }) {
      assertThat(OkapiHeaders.NOT_FORWARDED.contains(name)).as(name).isTrue();
    }
    assertThat(OkapiHeaders.NOT_FORWARDED.contains("X-Okapi-Tenant")).isFalse();
    assertThat(OkapiHeaders.NOT_FORWARDED.contains("Content-Type")).isFalse();
  }
}
