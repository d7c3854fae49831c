package io.okapigw.folio;

import static io.okapigw.folio.GatewayWithModules.delta;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.data.PatronBlock;
import io.okapigw.folio.desk.CirculationModule;
import io.okapigw.folio.module.CallCounts;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.OnContext;
import io.restassured.response.Response;
import io.vertx.core.Future;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Check-out and check-in through a real gateway: status codes, bodies and call counts. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CirculationThroughGatewayTest {

  private GatewayWithModules fx;
  private CirculationData data;

  @BeforeAll
  void start() {
    fx =
        new GatewayWithModules(
            CirculationData.Options.defaults().withPatrons(300).withItems(100),
            Duration.ofSeconds(10));
    data = fx.modules.data();
  }

  @AfterAll
  void stop() {
    fx.close();
  }

  @Test
  void registration_oneInstall_storageModulesTenantJobsPolledAndDeleted() {
    for (String storage : List.of("mod-inventory-storage", "mod-circulation-storage")) {
      CallCounts served = fx.modules.deployment(storage).served();
      assertThat(served.count("POST /_/tenant")).as(storage).isEqualTo(1);
      assertThat(served.count("GET /_/tenant/{id}")).as(storage).isPositive();
      assertThat(served.count("DELETE /_/tenant/{id}")).as(storage).isEqualTo(1);
    }
    JsonArray jobs =
        new JsonArray(
            given()
                .baseUri(fx.gateway.okapiUrl())
                .get("/_/proxy/tenants/" + GatewayWithModules.TENANT + "/install")
                .then()
                .statusCode(200)
                .extract()
                .asString());
    assertThat(jobs).hasSize(1);
    assertThat(jobs.getJsonObject(0).getBoolean("complete")).isTrue();
    assertThat(jobs.getJsonObject(0).getJsonArray("modules"))
        .hasSize(fx.modules.deployments().size() + 1) // and the gateway's own module, first
        .allMatch(m -> "done".equals(((JsonObject) m).getString("stage")));
    assertThat(jobs.getJsonObject(0).getJsonArray("modules").getJsonObject(0).getString("id"))
        .startsWith("okapi-");
  }

  @Test
  void checkOut_availableItem_answers201WithOpenLoanAfter33CallsThroughTheGateway() {
    ModuleDeployment circulation = fx.modules.deployment("mod-circulation");
    long callsBefore = circulation.calls().total();
    long fromModulesBefore = fx.servedFromModules();
    Map<String, Long> servedBefore = fx.served();

    Response response = fx.checkOut("I000001", "P000001");

    assertThat(response.statusCode()).as(response.asString()).isEqualTo(201);
    JsonObject loan = new JsonObject(response.asString());
    assertThat(loan.getJsonObject("status").getString("name")).isEqualTo("Open");
    assertThat(loan.getString("itemId")).isEqualTo(data.item("I000001").orElseThrow().id());
    assertThat(loan.getString("userId")).isEqualTo(data.patron("P000001").orElseThrow().id());
    assertThat(loan.getJsonObject("item").getString("title")).isNotBlank();
    assertThat(circulation.calls().total() - callsBefore).isEqualTo(33);
    assertThat(fx.servedFromModules() - fromModulesBefore).isEqualTo(33);
    assertThat(sum(delta(servedBefore, fx.served()))).isEqualTo(33 + 1);
    assertThat(CirculationModule.CHECK_OUT_CALLS).isEqualTo(33);
  }

  @Test
  void checkIn_checkedOutItem_answers200WithClosedLoanAndAvailableItemAfter21Calls() {
    fx.checkOut("I000002", "P000002").then().statusCode(201);
    long fromModulesBefore = fx.servedFromModules();
    Map<String, Long> servedBefore = fx.served();

    Response response = fx.checkIn("I000002");

    assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
    JsonObject body = new JsonObject(response.asString());
    assertThat(body.getJsonObject("loan").getJsonObject("status").getString("name"))
        .isEqualTo("Closed");
    assertThat(body.getJsonObject("loan").getString("returnDate")).isNotNull();
    assertThat(body.getJsonObject("item").getJsonObject("status").getString("name"))
        .isEqualTo("Available");
    assertThat(fx.servedFromModules() - fromModulesBefore).isEqualTo(21);
    assertThat(sum(delta(servedBefore, fx.served()))).isEqualTo(21 + 1);
  }

  @Test
  void checkOut_itemCheckedInAgain_canBeCheckedOutAgain() {
    fx.checkOut("I000003", "P000003").then().statusCode(201);
    fx.checkIn("I000003").then().statusCode(200);

    fx.checkOut("I000003", "P000004").then().statusCode(201);
  }

  @Test
  void checkOut_itemAlreadyOnLoan_answers422SayingSo() {
    fx.checkOut("I000004", "P000005").then().statusCode(201);

    Response second = fx.checkOut("I000004", "P000006");

    assertThat(second.statusCode()).isEqualTo(422);
    assertThat(firstMessage(second)).contains("I000004").contains("already checked out");
  }

  @Test
  void checkOut_unknownItemBarcode_answers422NamingTheBarcode() {
    Response response = fx.checkOut("NO-SUCH-ITEM", "P000007");

    assertThat(response.statusCode()).isEqualTo(422);
    JsonObject error = errors(response).getJsonObject(0);
    assertThat(error.getString("message")).contains("NO-SUCH-ITEM");
    assertThat(error.getJsonArray("parameters").getJsonObject(0).getString("key"))
        .isEqualTo("itemBarcode");
  }

  @Test
  void checkOut_unknownUserBarcode_answers422NamingTheBarcode() {
    Response response = fx.checkOut("I000005", "NO-SUCH-PATRON");

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(firstMessage(response)).contains("NO-SUCH-PATRON");
  }

  @Test
  void checkOut_unknownItemAndUser_answers422NamingBoth() {
    Response response = fx.checkOut("NO-ITEM-X", "NO-PATRON-Y");

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(errors(response).encode()).contains("NO-ITEM-X").contains("NO-PATRON-Y");
  }

  @Test
  void checkOut_manuallyBlockedPatron_answers422WithTheBlockReason() {
    String blocked = data.patronBarcodes(PatronBlock.MANUAL).get(0);

    Response response = fx.checkOut("I000006", blocked);

    assertThat(blocked).isEqualTo("P000000");
    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(firstMessage(response)).contains(blocked).contains("blocked from borrowing");
  }

  @Test
  void checkOut_automaticallyBlockedPatron_answers422WithTheBlockReason() {
    String blocked = data.patronBarcodes(PatronBlock.AUTOMATED).get(0);

    Response response = fx.checkOut("I000007", blocked);

    assertThat(blocked).isEqualTo("P000100");
    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(firstMessage(response)).contains("maximum allowed number of overdue items");
  }

  @Test
  void checkIn_itemNotOnLoan_answers422SayingSo() {
    Response response = fx.checkIn("I000008");

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(firstMessage(response)).contains("I000008").contains("not checked out");
  }

  @Test
  void checkOut_malformedJson_answers400NamingTheProblem() {
    Response response =
        fx.client().body("{\"itemBarcode\": ").post("/circulation/check-out-by-barcode");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(firstMessage(response)).contains("malformed JSON");
  }

  @Test
  void checkOut_missingUserBarcode_answers422NamingTheField() {
    Response response =
        fx.client()
            .body(
                new JsonObject()
                    .put("itemBarcode", "I000009")
                    .put("servicePointId", data.servicePointId())
                    .encode())
            .post("/circulation/check-out-by-barcode");

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(
            errors(response)
                .getJsonObject(0)
                .getJsonArray("parameters")
                .getJsonObject(0)
                .getString("key"))
        .isEqualTo("userBarcode");
  }

  @Test
  void checkOut_unknownServicePoint_answers422NamingIt() {
    String unknown = "00000000-0000-4000-8000-000000000000";
    Response response =
        fx.client()
            .body(
                new JsonObject()
                    .put("itemBarcode", "I000010")
                    .put("userBarcode", "P000010")
                    .put("servicePointId", unknown)
                    .encode())
            .post("/circulation/check-out-by-barcode");

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(firstMessage(response)).contains(unknown);
  }

  @Test
  void checkOut_sameItemFromFourDesksAtOnce_exactlyOneSucceeds() throws Exception {
    HttpClientAgent client = fx.vertx.createHttpClient();
    List<Future<Integer>> attempts = new ArrayList<>();
    OnContext.run(
            fx.vertx,
            () -> {
              for (int patron = 20; patron < 24; patron++) {
                attempts.add(
                    postCheckOut(client, "I000020", CirculationData.patronBarcode(patron)));
              }
              return Future.join(attempts);
            })
        .await(2, TimeUnit.MINUTES);

    assertThat(attempts)
        .extracting(Future::result)
        .containsOnly(201, 422)
        .filteredOn(status -> status == 201)
        .hasSize(1);
    fx.checkIn("I000020").then().statusCode(200);
  }

  private Future<Integer> postCheckOut(HttpClientAgent client, String item, String patron) {
    JsonObject body =
        new JsonObject()
            .put("itemBarcode", item)
            .put("userBarcode", patron)
            .put("servicePointId", data.servicePointId());
    return TestHttp.start(
            fx.vertx,
            client,
            new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(fx.gateway.okapiUrl() + "/circulation/check-out-by-barcode")
                .putHeader("X-Okapi-Tenant", GatewayWithModules.TENANT),
            body.toBuffer())
        .map(TestHttp.Result::status);
  }

  @Test
  void registerOn_repeated_succeedsAndKeepsEverythingWorking() {
    fx.modules.registerOn(fx.gateway.okapiUrl(), GatewayWithModules.TENANT).await();

    fx.checkOut("I000011", "P000011").then().statusCode(201);
  }

  @Test
  void registerOn_nothingListening_failsNamingTheStep() throws Exception {
    int closedPort = FreePorts.closed();

    assertThatThrownBy(
            () ->
                fx.modules
                    .registerOn("http://127.0.0.1:" + closedPort, "diku")
                    .await(2, TimeUnit.MINUTES))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("GET ")
        .hasMessageContaining("/_/proxy/tenants")
        .hasMessageContaining("" + closedPort);
  }

  @Test
  void deployment_unknownName_failsNamingIt() {
    assertThatThrownBy(() -> fx.modules.deployment("mod-nothing"))
        .isInstanceOf(NoSuchElementException.class)
        .hasMessageContaining("mod-nothing");
    assertThat(fx.modules.deployment("mod-circulation").id()).isEqualTo("mod-circulation-24.5.0");
  }

  static JsonObject errorsBody(Response response) {
    return new JsonObject(response.asString());
  }

  static JsonArray errors(Response response) {
    return errorsBody(response).getJsonArray("errors");
  }

  static String firstMessage(Response response) {
    return errors(response).getJsonObject(0).getString("message");
  }

  private static long sum(Map<String, Long> counts) {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }
}
