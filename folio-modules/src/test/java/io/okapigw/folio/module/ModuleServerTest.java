package io.okapigw.folio.module;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.folio.TestHttp;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.Descriptors;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The simulated-module kit on its own, without a gateway. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ModuleServerTest {

  private static final JsonObject DESCRIPTOR =
      Descriptors.module(
          "mod-echo-1.0.0", "echo", Descriptors.handler("POST", "/echo/{id}", "echo.post"));

  private Vertx vertx;
  private ModuleServer server;
  private HttpClientAgent client;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    Routes routes =
        new Routes()
            .on(
                "POST",
                "/echo/{id}",
                request ->
                    Future.succeededFuture(
                        Reply.ok(request.json().put("id", request.pathParam("id")))));
    server = new ModuleServer(DESCRIPTOR, routes, 0, Duration.ofSeconds(1));
    vertx.deployVerticle(server).await();
    client = vertx.createHttpClient();
  }

  @AfterAll
  void stop() {
    vertx.close().await();
  }

  @Test
  void handler_answersAndIsCountedUnderItsPathPattern() {
    long before = server.served().count("POST /echo/{id}");

    Answer answer = post("/echo/42", "{\"a\":1}", "diku");

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json()).isEqualTo(new JsonObject().put("a", 1).put("id", "42"));
    assertThat(server.served().count("POST /echo/{id}") - before).isEqualTo(1);
  }

  @Test
  void malformedJson_answers400NamingTheProblem() {
    Answer answer = post("/echo/1", "{\"a\":", "diku");

    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.message()).startsWith("malformed JSON body");
  }

  @Test
  void missingTenant_answers400() {
    Answer answer = post("/echo/1", "{}", null);

    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.message()).contains("X-Okapi-Tenant");
  }

  @Test
  void unknownPath_answers404NamingTheModule() {
    Answer answer = post("/nothing", "{}", "diku");

    assertThat(answer.status()).isEqualTo(404);
    assertThat(answer.message()).contains("mod-echo-1.0.0");
  }

  @Test
  void fault_answersTheConfiguredStatusUntilCleared() {
    server.faults().respond("POST", "/echo/{id}", 503);
    try {
      assertThat(post("/echo/1", "{}", "diku").status()).isEqualTo(503);
    } finally {
      server.faults().clear();
    }
    assertThat(post("/echo/1", "{}", "diku").status()).isEqualTo(200);
  }

  @Test
  void heldFault_answersAsUsualOnlyOnceReleased() throws Exception {
    Promise<Void> release = Promise.promise();
    server.faults().holdUntil("POST", "/echo/{id}", release.future());
    try {
      long before = server.served().count("POST /echo/{id}");
      Future<TestHttp.Result> held =
          TestHttp.start(vertx, client, echo("/echo/7", "diku"), Buffer.buffer("{\"a\":2}"));
      Await.until(
          () -> server.served().count("POST /echo/{id}") > before,
          "the request reached the module");
      assertThat(held.isComplete()).as("answered while held").isFalse();

      release.complete();

      TestHttp.Result answer = held.await(10, TimeUnit.SECONDS);
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.json()).isEqualTo(new JsonObject().put("a", 2).put("id", "7"));
    } finally {
      server.faults().clear();
    }
  }

  @Test
  void constructor_descriptorHandlerWithoutEndpoint_failsNamingIt() {
    assertThatThrownBy(() -> new ModuleServer(DESCRIPTOR, new Routes(), 0, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("POST /echo/{id}");
  }

  @Test
  void constructor_endpointNotInDescriptor_failsNamingIt() {
    Routes routes = new Routes().on("POST", "/echo/{id}", r -> null).on("GET", "/extra", r -> null);

    assertThatThrownBy(() -> new ModuleServer(DESCRIPTOR, routes, 0, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("GET /extra");
  }

  private RequestOptions echo(String path, String tenant) {
    RequestOptions options =
        new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(server.url() + path);
    if (tenant != null) {
      options.putHeader("X-Okapi-Tenant", tenant);
    }
    return options;
  }

  private Answer post(String path, String body, String tenant) {
    TestHttp.Result result = TestHttp.send(vertx, client, echo(path, tenant), Buffer.buffer(body));
    return new Answer(Call.post("echo", path), path, result.status(), result.body());
  }
}
