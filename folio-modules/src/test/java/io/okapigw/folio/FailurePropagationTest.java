package io.okapigw.folio;

import static io.okapigw.folio.CirculationThroughGatewayTest.firstMessage;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.folio.data.CirculationData;
import io.restassured.response.Response;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** A failing or silent downstream module gives a clear 502/504 naming it, never a hang. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FailurePropagationTest {

  /**
   * The modules' timeout on their calls to each other: every call of a check-out must beat it, so
   * it is far from their latency on a busy machine (it was 800 ms); the silent module's test waits
   * it out once.
   */
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

  private GatewayWithModules fx;

  @BeforeAll
  void start() {
    fx =
        new GatewayWithModules(
            CirculationData.Options.defaults().withPatrons(20).withItems(20), CALL_TIMEOUT);
  }

  @AfterEach
  void clearFaults() {
    fx.modules.deployments().forEach(d -> d.faults().clear());
  }

  @AfterAll
  void stop() {
    fx.close();
  }

  @Test
  void checkOut_downstreamAnswers500_answers502NamingInterfaceAndModule() {
    fx.modules
        .deployment("mod-inventory-storage")
        .faults()
        .respond("GET", "/holdings-storage/holdings/{id}", 500);

    Response response = fx.checkOut("I000001", "P000001");

    assertThat(response.statusCode()).isEqualTo(502);
    assertThat(firstMessage(response))
        .contains("holdings-storage")
        .contains("500")
        .contains("mod-inventory-storage-27.2.0");
  }

  @Test
  void checkOut_downstreamNeverAnswers_answers504NamingTheCallWithinTheTimeout() {
    fx.modules
        .deployment("mod-patron-blocks")
        .faults()
        .hang("GET", "/automated-patron-blocks/{id}");

    Response response = fx.checkOut("I000002", "P000002");

    assertThat(response.statusCode()).isEqualTo(504);
    assertThat(firstMessage(response))
        .contains("automated-patron-blocks")
        .contains(CALL_TIMEOUT.toMillis() + " ms");
  }

  @Test
  void checkIn_loanStorageFails_answers502AndLeavesTheLoanOpen() {
    fx.checkOut("I000003", "P000003").then().statusCode(201);
    fx.modules
        .deployment("mod-circulation-storage")
        .faults()
        .respond("PUT", "/loan-storage/loans/{id}", 503);

    Response response = fx.checkIn("I000003");

    assertThat(response.statusCode()).isEqualTo(502);
    assertThat(firstMessage(response)).contains("loan-storage").contains("503");
    fx.modules.deployment("mod-circulation-storage").faults().clear();
    fx.checkOut("I000003", "P000004").then().statusCode(422);
  }

  @Test
  void checkOut_loanCreationFails_releasesTheCheckOutLock() {
    fx.modules
        .deployment("mod-circulation-storage")
        .faults()
        .respond("POST", "/loan-storage/loans", 500);
    fx.checkOut("I000005", "P000005").then().statusCode(502);
    fx.modules.deployment("mod-circulation-storage").faults().clear();

    Response retry = fx.checkOut("I000005", "P000005");

    assertThat(retry.statusCode()).as(retry.asString()).isEqualTo(201);
  }
}
