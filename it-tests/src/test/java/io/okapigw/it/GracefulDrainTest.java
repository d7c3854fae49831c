package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.Descriptors;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.HoldingModule;
import io.okapigw.testsupport.process.JavaProcess;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.core.Vertx;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A real gateway JVM sent SIGTERM (what {@code docker stop} and Kubernetes send) while a request is
 * in flight: readiness turns false at once, the request is answered in full, and the process leaves
 * with status 0.
 */
class GracefulDrainTest {

  private static final String TENANT = "diku";
  private static final String MODULE = "mod-slow-1.0.0";

  private final HttpClient http = HttpClient.newHttpClient();
  private Vertx vertx;
  private HoldingModule module;
  private JavaProcess gateway;
  private String url;
  private String readiness;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    module = HoldingModule.start(vertx);
    int healthPort = FreePorts.belowEphemeralRange();
    readiness = "http://127.0.0.1:" + healthPort + "/readiness";
    StandaloneGateway started =
        StandaloneGateway.start(
            Jars.gateway(),
            List.of(
                "--healthPort", Integer.toString(healthPort), "--shutdown.drain-timeout", "10m"));
    url = started.url();
    gateway = started.process();
    register();
  }

  @AfterEach
  void stop() {
    gateway.close();
    vertx.close().await();
  }

  @Test
  void sigterm_requestInFlight_answeredInFull_readinessFalse_exitZero() throws Exception {
    CompletableFuture<HttpResponse<String>> inFlight =
        http.sendAsync(
            HttpRequest.newBuilder(URI.create(url + "/slow"))
                .header("X-Okapi-Tenant", TENANT)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    module.awaitHeld(1);
    assertThat(status(readiness)).isEqualTo(204);

    gateway.terminate();

    Await.until(() -> status(readiness) == 503, "readiness turned false");
    assertThat(gateway.isAlive()).as("still draining its request").isTrue();
    module.answerAll("the answer, late");
    HttpResponse<String> response = inFlight.get(1, TimeUnit.MINUTES);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("the answer, late");
    assertThat(response.headers().firstValue("Connection")).hasValue("close");
    assertThat(gateway.awaitExit(JavaProcess.PATIENCE))
        .as("exit status; output:\n%s", gateway.outputTail())
        .isZero();
    assertThat(gateway.output()).contains("draining").contains("drained");
  }

  /** Nothing in flight: it exits long before the 10 minute drain timeout (no stopwatch). */
  @Test
  void sigterm_idleNode_stopsAcceptingAndExitsZeroAtOnce() throws Exception {
    gateway.terminate();
    assertThat(gateway.awaitExit(JavaProcess.PATIENCE))
        .as("exit status; output:\n%s", gateway.outputTail())
        .isZero();
    assertThat(refused(url + "/_/proxy/health")).isTrue();
  }

  private void register() {
    given().baseUri(url).body("{\"id\":\"" + TENANT + "\"}").post("/_/proxy/tenants");
    given()
        .baseUri(url)
        .body(Descriptors.module(MODULE, "slow", Descriptors.handler("GET", "/slow")).encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(201);
    given()
        .baseUri(url)
        .body("{\"srvcId\":\"" + MODULE + "\",\"instId\":\"one\",\"url\":\"" + module.url() + "\"}")
        .post("/_/discovery/modules")
        .then()
        .statusCode(201);
    given()
        .baseUri(url)
        .body("{\"id\":\"" + MODULE + "\"}")
        .post("/_/proxy/tenants/" + TENANT + "/modules")
        .then()
        .statusCode(201);
  }

  private int status(String target) {
    try {
      return http.send(
              HttpRequest.newBuilder(URI.create(target)).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (Exception e) {
      return -1;
    }
  }

  private boolean refused(String target) {
    try {
      http.send(
          HttpRequest.newBuilder(URI.create(target)).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.discarding());
      return false;
    } catch (ConnectException e) {
      return true;
    } catch (Exception e) {
      return e.getCause() instanceof ConnectException;
    }
  }
}
