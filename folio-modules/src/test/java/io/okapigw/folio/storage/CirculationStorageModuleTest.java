package io.okapigw.folio.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.folio.TestHttp;
import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.module.ModuleServer;
import io.okapigw.folio.module.ModuleSpec;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Loan storage's one-open-loan-per-item rule and check-out locks, called directly. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CirculationStorageModuleTest {

  private Vertx vertx;
  private ModuleServer server;
  private HttpClientAgent client;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    ModuleSpec spec =
        CirculationStorageModule.spec(
            CirculationData.generate(
                CirculationData.Options.defaults().withPatrons(1).withItems(1)));
    server = new ModuleServer(spec.descriptor(), spec.routes(), 0, Duration.ofSeconds(1));
    vertx.deployVerticle(server).await();
    client = vertx.createHttpClient();
  }

  @AfterAll
  void stop() {
    vertx.close().await();
  }

  @Test
  void postLoan_eightConcurrentOpenLoansForOneItem_exactlyOneIsCreated() throws Exception {
    String itemId = UUID.randomUUID().toString();
    List<Future<Integer>> posts = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      posts.add(
          TestHttp.start(
                  vertx,
                  client,
                  options(HttpMethod.POST, "/loan-storage/loans"),
                  openLoan(itemId).toBuffer())
              .map(TestHttp.Result::status));
    }
    Future.join(posts).await(2, TimeUnit.MINUTES);

    assertThat(posts)
        .extracting(Future::result)
        .containsOnly(201, 422)
        .filteredOn(status -> status == 201)
        .hasSize(1);
  }

  @Test
  void putLoan_closingIt_allowsANewOpenLoanForTheItem() {
    String itemId = UUID.randomUUID().toString();
    JsonObject loan = openLoan(itemId);
    status(HttpMethod.POST, "/loan-storage/loans", loan);

    int closed =
        status(
            HttpMethod.PUT,
            "/loan-storage/loans/" + loan.getString("id"),
            loan.copy().put("status", new JsonObject().put("name", "Closed")));
    int next = status(HttpMethod.POST, "/loan-storage/loans", openLoan(itemId));

    assertThat(closed).isEqualTo(204);
    assertThat(next).isEqualTo(201);
  }

  @Test
  void postLoan_withoutUserId_answers422() {
    JsonObject loan = openLoan(UUID.randomUUID().toString());
    loan.remove("userId");

    assertThat(status(HttpMethod.POST, "/loan-storage/loans", loan)).isEqualTo(422);
  }

  @Test
  void checkOutLock_secondForSamePatron_answers503UntilTheFirstIsDeleted() {
    JsonObject lock =
        new JsonObject().put("userId", UUID.randomUUID().toString()).put("ttlMs", 60_000);
    String lockId = request(HttpMethod.POST, "/check-out-lock-storage", lock).getString("id");

    int second = status(HttpMethod.POST, "/check-out-lock-storage", lock);
    int deleted = status(HttpMethod.DELETE, "/check-out-lock-storage/" + lockId, null);
    int third = status(HttpMethod.POST, "/check-out-lock-storage", lock);

    assertThat(second).isEqualTo(503);
    assertThat(deleted).isEqualTo(204);
    assertThat(third).isEqualTo(201);
  }

  private static JsonObject openLoan(String itemId) {
    return new JsonObject()
        .put("id", UUID.randomUUID().toString())
        .put("itemId", itemId)
        .put("userId", UUID.randomUUID().toString())
        .put("loanDate", "2025-01-01T10:00:00Z")
        .put("action", "checkedout")
        .put("status", new JsonObject().put("name", "Open"));
  }

  private int status(HttpMethod method, String path, JsonObject body) {
    return TestHttp.send(
            vertx, client, options(method, path), body == null ? null : body.toBuffer())
        .status();
  }

  private JsonObject request(HttpMethod method, String path, JsonObject body) {
    return TestHttp.send(vertx, client, options(method, path), body.toBuffer()).json();
  }

  private RequestOptions options(HttpMethod method, String path) {
    return new RequestOptions()
        .setMethod(method)
        .setAbsoluteURI(server.url() + path)
        .putHeader("X-Okapi-Tenant", "diku");
  }
}
