package io.okapigw.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.demo.DemoOptions;
import io.okapigw.demo.Library;
import io.okapigw.folio.ModuleDeployment;
import io.okapigw.folio.data.CirculationData;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.process.JavaProcess;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 34's first finding on a real gateway process with its default settings: a check-out in
 * flight when the node is told to stop (SIGTERM), its loan written and its item update held at the
 * module, goes on calling the node back (mod-circulation calls the other modules through its {@code
 * X-Okapi-Url}, the node itself) after the readiness delay too, while the node refuses new client
 * requests; it is answered 201, and the node then leaves with status 0. Before, the node closed its
 * listener at once and the check-out's next call back was refused: an error for a check-out half
 * done.
 */
class DrainCheckOutTest {

  private static final String ITEM_UPDATE = "/item-storage/items/{id}";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir Path dir;

  private final Vertx vertx = Vertx.vertx();
  private StandaloneGateway gateway;

  @AfterEach
  void stop() throws Exception {
    if (gateway != null) {
      gateway.close();
    }
    vertx.close().await(1, TimeUnit.MINUTES);
  }

  @Test
  void sigterm_checkOutInFlight_defaultSettings_answered201_thenExitZero() throws Exception {
    gateway = StandaloneGateway.start(Jars.gateway(), List.of());
    JavaProcess node = gateway.process();
    Library library =
        Library.start(vertx, new DemoOptions(0, 10, 10, true, true, dir), gateway.url())
            .await(JavaProcess.PATIENCE.toMinutes(), TimeUnit.MINUTES);
    String token =
        AdminCalls.login(
            gateway.url(), DemoOptions.TENANT, DemoOptions.ADMIN, DemoOptions.ADMIN_PASSWORD);
    ModuleDeployment inventory = library.modules().deployment("mod-inventory-storage");
    Promise<Void> release = Promise.promise();
    inventory.faults().holdUntil("PUT", ITEM_UPDATE, release.future());
    CompletableFuture<HttpResponse<String>> checkOut = checkOut(library.data(), token);
    Await.until(
        () -> inventory.served().count("PUT " + ITEM_UPDATE) > 0,
        "the check-out wrote its loan and called the node back to update the item");

    node.terminate();

    Await.until(
        this::newClientRequestRefused, "the node refuses new client requests (or accepts none)");
    assertThat(node.isAlive()).as("still draining the check-out").isTrue();
    release.complete();
    HttpResponse<String> answer = answered(checkOut, node);
    assertThat(answer.statusCode())
        .as("the check-out: %s; the node's output:\n%s", answer.body(), node.outputTail())
        .isEqualTo(201);
    assertThat(node.awaitExit(JavaProcess.PATIENCE))
        .as("exit status; output:\n%s", node.outputTail())
        .isZero();
  }

  private static HttpResponse<String> answered(
      CompletableFuture<HttpResponse<String>> request, JavaProcess node) throws Exception {
    try {
      return request.get(90, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError(
          "the check-out got no answer: "
              + e.getCause()
              + "; the node's output:\n"
              + node.outputTail(),
          e);
    }
  }

  private CompletableFuture<HttpResponse<String>> checkOut(CirculationData data, String token) {
    JsonObject body =
        new JsonObject()
            .put("itemBarcode", data.itemBarcodes().get(0))
            .put("userBarcode", data.activePatronBarcodes().get(0))
            .put("servicePointId", data.servicePointId());
    return HTTP.sendAsync(
        HttpRequest.newBuilder(URI.create(gateway.url() + "/circulation/check-out-by-barcode"))
            .header("X-Okapi-Tenant", DemoOptions.TENANT)
            .header("X-Okapi-Token", token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.encode()))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A client's request without a token: 401 from the auth filter while the node serves. */
  private boolean newClientRequestRefused() {
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(gateway.url() + "/users"))
                  .header("X-Okapi-Tenant", DemoOptions.TENANT)
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 503) {
        return false;
      }
      assertThat(response.headers().firstValue("Connection")).hasValue("close");
      assertThat(response.body()).contains("draining");
      return true;
    } catch (java.net.ConnectException e) {
      return true; // the listener is closed: what the node did before issue 34
    } catch (Exception e) {
      return e.getCause() instanceof java.net.ConnectException;
    }
  }
}
