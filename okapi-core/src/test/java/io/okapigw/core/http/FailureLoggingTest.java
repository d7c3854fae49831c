package io.okapigw.core.http;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.LogCapture;
import io.okapigw.core.testing.Metrics;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.UnsignedJwt;
import io.okapigw.testsupport.Await;
import io.okapigw.testsupport.FreePorts;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Failures anyone can cause (an auth module that is down, a bad path, a client that hangs up) log
 * at most one line each, no stack trace and no token, and a burst of them a bounded number of lines
 * (FailureLog: 20 lines per kind and minute, then a count). Counted is everything the process would
 * write with the production log configuration, java.util.logging included.
 */
class FailureLoggingTest {

  /** 20 lines of one kind, a count of those not logged, and one line of slack. */
  private static final int MAX_LINES = 22;

  private static final Pattern STACK_TRACE =
      Pattern.compile(
          "^\\s+at |^\\s*Caused by|^\\s*\\.\\.\\. \\d+ more|^[\\w$.]+\\.[A-Z]\\w*(Exception|Error)\\b");
  private static final Pattern FAILURE_LINE =
      Pattern.compile("^(INFO|WARN) Failures - (\\d{3}|-)( [A-Z]+ \\S+)?( \\[[^\\]]*])?: \\S.*$");

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private HttpClientAgent client;

  @BeforeEach
  void start() {
    // one window for the whole test: its bound must not depend on when the minute turns
    Failures.useClock(() -> 0L);
    gw.createTenant("diku");
    client = gw.vertx().createHttpClient();
  }

  @AfterEach
  void realClock() {
    Failures.useClock(System::nanoTime);
  }

  @Test
  void authModuleDown_100Calls_boundedLinesNoStackTraceNoToken() throws Exception {
    String down = "http://127.0.0.1:" + closedPort();
    gw.install("diku", authModule("mod-auth-1.0.0"), down);
    gw.install("diku", module("mod-hello-1.0.0", "hello", handler("GET", "/hello")), down);
    String token = UnsignedJwt.of("diku", "u1");

    List<String> lines;
    try (LogCapture logs = new LogCapture()) {
      for (int i = 0; i < 100; i++) {
        gw.tenant("diku").header("X-Okapi-Token", token).get("/hello").then().statusCode(503);
      }
      lines = logs.lines(); // logged before the answer, which was awaited;
    }

    assertOneLineEachAndBounded(lines);
    assertThat(String.join("\n", lines)).doesNotContain(token);
  }

  @Test
  void adminPathThatDoesNotDecode_100Calls_400BoundedLinesNoStackTrace() throws Exception {
    List<String> lines;
    try (LogCapture logs = new LogCapture()) {
      for (int i = 0; i < 100; i++) {
        assertThat(status(HttpMethod.GET, "/_/proxy/modules/%zz")).isEqualTo(400);
      }
      lines = logs.lines(); // logged before the answer, which was awaited;
    }

    assertOneLineEachAndBounded(lines);
  }

  @Test
  void clientHangsUpDuringDownload_30Times_boundedLinesNoStackTrace() throws Exception {
    TestModule slow =
        TestModule.start(
            gw.vertx(),
            router -> router.get("/slow").handler(ctx -> streamForever(ctx.response())));
    gw.install("diku", module("mod-slow-1.0.0", "slow", handler("GET", "/slow")), slow.url());

    List<String> lines;
    double closed = closedConnections();
    try (LogCapture logs = new LogCapture()) {
      for (int i = 0; i < 30; i++) {
        hangUpAfterFirstPiece("/slow");
      }
      lines = settled(logs, closed, 30);
    }

    slow.close();
    assertOneLineEachAndBounded(lines);
  }

  @Test
  void clientHangsUpDuringUpload_30Times_boundedLinesNoStackTrace() throws Exception {
    TestModule sink =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .post("/sink")
                    .handler(ctx -> ctx.request().body().onComplete(body -> ctx.response().end())));
    gw.install("diku", module("mod-sink-1.0.0", "sink", handler("POST", "/sink")), sink.url());

    List<String> lines;
    double closed = closedConnections();
    try (LogCapture logs = new LogCapture()) {
      for (int i = 0; i < 30; i++) {
        hangUpDuringUpload("/sink");
      }
      lines = settled(logs, closed, 30);
    }

    sink.close();
    assertOneLineEachAndBounded(lines);
  }

  /**
   * Pipelined requests, then a reset: Vert.x 5.0's exception path threw a NullPointerException for
   * the request not yet answered, logged by Netty at WARN with the reset's stack trace.
   */
  @Test
  void clientPipelinesThenResets_30Times_boundedLinesNoStackTrace() throws Exception {
    TestModule hello =
        TestModule.start(
            gw.vertx(), router -> router.get("/hello").handler(ctx -> ctx.response().end("hello")));
    gw.install("diku", module("mod-hello-1.0.0", "hello", handler("GET", "/hello")), hello.url());
    String request = "GET /hello HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n\r\n";

    List<String> lines;
    double closed = closedConnections();
    try (LogCapture logs = new LogCapture()) {
      for (int i = 0; i < 30; i++) {
        try (Socket socket = new Socket("127.0.0.1", gw.gateway().port())) {
          socket.getOutputStream().write(request.repeat(3).getBytes(StandardCharsets.US_ASCII));
          if (i % 2 == 0) {
            socket.setSoTimeout(5_000);
            assertThat(socket.getInputStream().read()).isNotNegative();
          }
          socket.setSoLinger(true, 0);
        }
      }
      lines = settled(logs, closed, 30);
    }

    hello.close();
    assertOneLineEachAndBounded(lines);
    assertThat(status(HttpMethod.GET, "/_/proxy/health")).isEqualTo(200);
  }

  /** Writes a piece every 20 ms until the gateway resets the stream. */
  private static void streamForever(HttpServerResponse response) {
    response.setChunked(true).write("first piece");
    long timer = Vertx.currentContext().owner().setPeriodic(20, id -> response.write("piece"));
    response.closeHandler(v -> Vertx.currentContext().owner().cancelTimer(timer));
  }

  private static void assertOneLineEachAndBounded(List<String> lines) {
    assertThat(lines).as("log lines").hasSizeLessThanOrEqualTo(MAX_LINES);
    assertThat(lines).as("stack trace lines").noneMatch(line -> STACK_TRACE.matcher(line).find());
    assertThat(lines)
        .as("lines of the failure log")
        .filteredOn(line -> line.contains(" Failures - ") && !line.contains("more"))
        .allMatch(line -> FAILURE_LINE.matcher(line).matches());
  }

  /**
   * @return the lines, once the gateway has handled the close of {@code n} more client connections
   *     than {@code closedBefore} (its {@code okapi_client_connections_closed_total}), what the
   *     request in progress on each did included
   */
  private List<String> settled(LogCapture logs, double closedBefore, int n) {
    Await.until(() -> closedConnections() >= closedBefore + n, n + " connections closed");
    return logs.lines();
  }

  /**
   * @return the gateway's {@code okapi_client_connections_closed_total}
   */
  private double closedConnections() {
    return Metrics.value(
        Metrics.scrape(client, gw.gateway().port()), "okapi_client_connections_closed_total");
  }

  private int status(HttpMethod method, String uri) {
    return client
        .request(method, gw.gateway().port(), "localhost", uri)
        .compose(req -> req.send().compose(res -> res.body().map(res.statusCode())))
        .await();
  }

  private void hangUpAfterFirstPiece(String path) {
    Promise<Void> closed = Promise.promise();
    client
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setPort(gw.gateway().port())
                .setHost("localhost")
                .setURI(path)
                .putHeader("X-Okapi-Tenant", "diku"))
        .compose(HttpClientRequest::send)
        .onSuccess(
            res ->
                res.handler(
                    piece ->
                        res.request().connection().close().onComplete(v -> closed.tryComplete())))
        .onFailure(closed::tryFail);
    closed.future().await();
  }

  private void hangUpDuringUpload(String path) {
    Future<Void> closed =
        client
            .request(
                new RequestOptions()
                    .setMethod(HttpMethod.POST)
                    .setPort(gw.gateway().port())
                    .setHost("localhost")
                    .setURI(path)
                    .putHeader("X-Okapi-Tenant", "diku")
                    .putHeader("Content-Length", "1000000"))
            .compose(
                req ->
                    req.exceptionHandler(e -> {}) // this test client's own hang-up
                        .write(Buffer.buffer(new byte[100_000]))
                        .compose(v -> gw.vertx().timer(50))
                        .compose(v -> req.connection().close()));
    closed.await();
  }

  private static int closedPort() throws IOException {
    return FreePorts.closed();
  }
}
