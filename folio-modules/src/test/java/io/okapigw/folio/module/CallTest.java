package io.okapigw.folio.module;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallTest {

  private static final Call HOLDINGS =
      Call.get("holdings-storage", "/holdings-storage/holdings/{id}");

  @Test
  void path_encodesValuesSoTheyStayOneSegment() {
    String path = HOLDINGS.path("a/b c");

    assertThat(path).isEqualTo("/holdings-storage/holdings/a%2Fb%20c");
  }

  @Test
  void path_decodedByTheMatchingHandler_givesTheValueBack() {
    HandlerSpec spec =
        new HandlerSpec(
            "m", "holdings-storage", "GET", HOLDINGS.pathPattern(), List.of(), List.of());

    assertThat(spec.match("GET", HOLDINGS.path("a/b c"))).contains(Map.of("id", "a/b c"));
    assertThat(spec.match("PUT", HOLDINGS.path("x"))).isEmpty();
    assertThat(spec.match("GET", "/holdings-storage/holdings/x/y")).isEmpty();
  }

  @Test
  void path_wrongNumberOfValues_fails() {
    assertThatThrownBy(() -> HOLDINGS.path()).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HOLDINGS.path("a", "b")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void query_encodesCql() {
    assertThat(Call.get("users", "/users").query("barcode==\"P 1\"", 1))
        .isEqualTo("/users?query=barcode%3D%3D%22P%201%22&limit=1");
  }
}
