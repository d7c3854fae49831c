package io.okapigw.folio.module;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.MultiMap;
import io.vertx.core.http.RequestOptions;
import org.junit.jupiter.api.Test;

/** What a module passes on when it calls another module through the gateway. */
class OkapiHeadersTest {

  private static final String TRACEPARENT =
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  private static MultiMap received() {
    return MultiMap.caseInsensitiveMultiMap()
        .add("X-Okapi-Url", "http://gw:9130/")
        .add("X-Okapi-Tenant", "diku")
        .add("X-Okapi-Token", "module-token")
        .add("X-Okapi-Request-Id", "1/items");
  }

  @Test
  void traceContext_passedOn_soTheCallJoinsTheRequestsTrace() {
    MultiMap in = received().add("traceparent", TRACEPARENT).add("tracestate", "k=v");
    MultiMap out = OkapiHeaders.from(in).apply(new RequestOptions()).getHeaders();
    assertThat(out.get("traceparent")).isEqualTo(TRACEPARENT);
    assertThat(out.get("tracestate")).isEqualTo("k=v");
    assertThat(out.get("X-Okapi-Request-Id")).isEqualTo("1/items");
  }

  @Test
  void noTraceContext_noneInvented() {
    MultiMap out = OkapiHeaders.from(received()).apply(new RequestOptions()).getHeaders();
    assertThat(out.contains("traceparent")).isFalse();
    assertThat(out.contains("tracestate")).isFalse();
    assertThat(out.get("X-Okapi-Tenant")).isEqualTo("diku");
  }
}
