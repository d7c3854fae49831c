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

  /**
   * As FOLIO's modules: Okapi's headers passed on, the request id among them (by which the gateway
   * finds the call this one is made for), the W3C trace context not.
   */
  @Test
  void okapiHeadersPassedOn_traceContextNot_asFolioModules() {
    MultiMap in = received().add("traceparent", TRACEPARENT).add("tracestate", "k=v");
    MultiMap out = OkapiHeaders.from(in).apply(new RequestOptions()).getHeaders();
    assertThat(out.get("X-Okapi-Request-Id")).isEqualTo("1/items");
    assertThat(out.get("X-Okapi-Tenant")).isEqualTo("diku");
    assertThat(out.get("X-Okapi-Token")).isEqualTo("module-token");
    assertThat(out.contains("traceparent")).isFalse();
    assertThat(out.contains("tracestate")).isFalse();
  }
}
