package io.okapigw.it.tracing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.demo.TraceSpan;
import io.okapigw.it.Jars;
import io.okapigw.it.ReferenceOkapi;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Okapi-protocol module that calls back through the gateway as FOLIO's modules do: Okapi's
 * own {@code okapi-test-module}, whose {@code GET /recurse?depth=N} calls itself through {@code
 * X-Okapi-Url} with okapi-common's {@code OkapiClient}, which passes on the {@code X-Okapi-*}
 * headers and not {@code traceparent}. Its calls back still make one trace, as the gateway exports
 * it over OTLP ({@link OtlpReceiver}), each under the call it serves (the gateway knows them by
 * their {@code X-Okapi-Request-Id}). Skipped with a notice where Okapi 6.1.5's build (its test
 * module) is missing.
 */
class OkapiClientTraceTest {

  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String CLIENT_SPAN = "00f067aa0ba902b7";
  private static final int DEPTH = 3;

  @TempDir Path dir;

  @Test
  void recursingOkapiTestModule_oneTrace_eachCallBackUnderTheCallItServes() throws Exception {
    Optional<ReferenceOkapi> okapi = ReferenceOkapi.v615();
    Assumptions.assumeTrue(okapi.isPresent(), "no okapi-test-module (notice above)");
    int gatewayPort = FreePorts.belowEphemeralRange();
    String gatewayUrl = "http://127.0.0.1:" + gatewayPort;
    try (OtlpReceiver receiver = OtlpReceiver.start();
        ReferenceOkapi.Running module = okapi.get().startTestModule();
        JavaProcess gateway =
            Jars.devGateway(
                gatewayPort,
                "--okapi-url",
                gatewayUrl,
                "--tracing.enabled",
                "true",
                "--tracing.endpoint",
                receiver.endpoint())) {
      gateway.awaitReady(gatewayUrl + "/_/version", JavaProcess.PATIENCE);
      ReferenceOkapi.enableRecurse(gatewayUrl, module.url());

      given()
          .baseUri(gatewayUrl)
          .header("X-Okapi-Tenant", "diku")
          .header("traceparent", "00-" + TRACE + "-" + CLIENT_SPAN + "-01")
          .get("/recurse?depth=" + DEPTH)
          .then()
          .statusCode(200)
          .body(equalTo("3 2 1 Recursion done"));

      List<TraceSpan> spans =
          receiver.trace(
              TRACE,
              t -> t.stream().filter(TraceSpan::isServer).count() > DEPTH,
              Duration.ofSeconds(60));
      Map<String, TraceSpan> byId =
          spans.stream().collect(Collectors.toMap(TraceSpan::id, Function.identity()));
      List<TraceSpan> servers = spans.stream().filter(TraceSpan::isServer).toList();
      assertThat(servers)
          .as("the client's request and its %d calls back", DEPTH)
          .hasSize(DEPTH + 1);
      assertThat(servers).filteredOn(s -> CLIENT_SPAN.equals(s.parentId())).hasSize(1);
      assertThat(servers)
          .filteredOn(s -> !CLIENT_SPAN.equals(s.parentId()))
          .allSatisfy(
              s -> assertThat(byId.get(s.parentId()).callKind()).as(s.name()).isEqualTo("handler"));
    }
  }
}
