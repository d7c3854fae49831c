package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A real FOLIO client calls back through the gateway and is recognised as a call back: Okapi's own
 * {@code okapi-test-module}, whose {@code GET /recurse?depth=N} calls itself through {@code
 * X-Okapi-Url} with okapi-common's {@code OkapiClient} (Okapi 6.1.5's on Vert.x 4, 7.0.7's on
 * Vert.x 5), which passes on the {@code X-Okapi-*} headers it got. With one request in flight
 * allowed per tenant, the client's request holds the place, so each of its calls back is served
 * only because the key in its {@code X-Okapi-Request-Id} is recognised. Skipped with a notice where
 * Okapi's build (its test module) is missing.
 */
class OkapiClientCallBackTest {

  private static final int DEPTH = 3;

  @Test
  void okapi615TestModule_recursingWithTheTenantAtItsLimit_everyCallBackServed() throws Exception {
    recurse(ReferenceOkapi::v615);
  }

  @Test
  void okapi707TestModule_recursingWithTheTenantAtItsLimit_everyCallBackServed() throws Exception {
    recurse(ReferenceOkapi::v707);
  }

  private void recurse(Supplier<Optional<ReferenceOkapi>> reference) throws Exception {
    Optional<ReferenceOkapi> okapi = reference.get();
    Assumptions.assumeTrue(okapi.isPresent(), "no okapi-test-module (notice above)");
    int gatewayPort = FreePorts.belowEphemeralRange();
    String gatewayUrl = "http://127.0.0.1:" + gatewayPort;
    try (ReferenceOkapi.Running module = okapi.get().startTestModule();
        JavaProcess gateway =
            Jars.devGateway(
                gatewayPort, "--okapi-url", gatewayUrl, "--bulkhead.max-in-flight", "1")) {
      gateway.awaitReady(gatewayUrl + "/_/version", JavaProcess.PATIENCE);
      ReferenceOkapi.enableRecurse(gatewayUrl, module.url());

      given()
          .baseUri(gatewayUrl)
          .header("X-Okapi-Tenant", "diku")
          .get("/recurse?depth=" + DEPTH)
          .then()
          .statusCode(200)
          .body(equalTo("3 2 1 Recursion done"));
    }
  }
}
