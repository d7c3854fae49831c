package io.okapigw.core.proxy;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Settings;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.BoundedHttp;
import io.okapigw.core.testing.BoundedHttp.Answer;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.StreamModule;
import io.okapigw.core.testing.TestModule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The security review's case: a client posts with a large Content-Length and a little body, the
 * module answers 413 before reading it, the client gives up. The gateway's connection to the module
 * then holds a request sent in part: it must be closed, never go back to the pool, or the next
 * requests on it are read by the module as the rest of that body and hang. A pool of two
 * connections makes a jam show at once.
 */
class AbortedUploadTest {

  private static final int ABORTS = 3;
  private static final long DECLARED = 1_000_000;

  private GatewayFixture gw;
  private BoundedHttp http;

  @BeforeEach
  void start() {
    gw = new GatewayFixture(GatewayOptions.from(Settings.of(Map.of("proxy.max-connections", "2"))));
    gw.createTenant("diku");
    http = new BoundedHttp(gw.url());
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  @Test
  void upload_moduleAnswers413EarlyClientResets_laterConcurrentRequestsAllAnswerInTime()
      throws IOException {
    installStreamModule();
    List<Integer> aborted = abortUploads("/s/upload", true);
    assertAllAnswerInTime(concurrentPings(ABORTS + 4), 200);
    assertThat(aborted).as("statuses of the aborted uploads").containsOnly(413);
  }

  @Test
  void upload_moduleAnswers413EarlyClientCloses_laterConcurrentRequestsAllAnswerInTime()
      throws IOException {
    installStreamModule();
    List<Integer> aborted = abortUploads("/s/upload", false);
    assertAllAnswerInTime(concurrentPings(ABORTS + 4), 200);
    assertThat(aborted).as("statuses of the aborted uploads").containsOnly(413);
  }

  /**
   * The review's request: an open login on the auth module, whose filter is on the same module
   * instance and so on the same pool; a jammed pool made later auth calls fail with 503.
   */
  @Test
  void login_authModuleAnswers413EarlyClientResets_laterLoginsAllAnswerInTime() throws IOException {
    TestModule authn =
        TestModule.start(
            gw.vertx(),
            router -> {
              router
                  .route()
                  .handler(
                      ctx -> {
                        if (ctx.request().getHeader("X-Okapi-Filter") != null
                            || ctx.request().getHeader("X-Okapi-Module-Permissions") != null) {
                          ctx.response().setStatusCode(202).end();
                        } else {
                          ctx.next();
                        }
                      });
              router
                  .post("/authn/login")
                  .handler(
                      ctx -> {
                        if (Long.parseLong(ctx.request().getHeader("Content-Length")) > 64 * 1024) {
                          ctx.response().setStatusCode(413).end("too large");
                        } else {
                          ctx.request()
                              .body()
                              .onSuccess(b -> ctx.response().setStatusCode(201).end());
                        }
                      });
            });
    gw.install(
        "diku",
        authModule("mod-authtoken-1.0.0")
            .put(
                "provides",
                module("x", "authtoken", handler("POST", "/authn/login")).getJsonArray("provides")),
        authn.url());
    List<Integer> aborted = abortUploads("/authn/login", true);
    List<CompletableFuture<Answer>> logins = new ArrayList<>();
    for (int i = 0; i < ABORTS + 4; i++) {
      logins.add(http.post("/authn/login", 100));
    }
    assertAllAnswerInTime(logins, 201);
    assertThat(aborted).as("statuses of the aborted logins").containsOnly(413);
  }

  /**
   * Posts {@link #ABORTS} times 1 KiB of a declared megabyte, reads the answer, then resets (or
   * closes) the connection.
   *
   * @return the statuses answered, -1 for none in time
   */
  private List<Integer> abortUploads(String path, boolean reset) throws IOException {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < ABORTS; i++) {
      RawClient client =
          RawClient.connect(gw.gateway().port()).head("POST", path, DECLARED).body(1024);
      statuses.add(client.status());
      if (reset) {
        client.reset();
      } else {
        client.close();
      }
    }
    return statuses;
  }

  private void installStreamModule() {
    StreamModule module = StreamModule.start(gw.vertx());
    gw.install("diku", module("mod-stream-1.0.0", "stream", handler("*", "/s/*")), module.url());
  }

  private List<CompletableFuture<Answer>> concurrentPings(int n) {
    List<CompletableFuture<Answer>> pings = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      pings.add(http.get("/s/ping"));
    }
    return pings;
  }

  private static void assertAllAnswerInTime(List<CompletableFuture<Answer>> requests, int status) {
    assertThat(BoundedHttp.awaitAll(requests))
        .as("every request answers %d within %s", status, BoundedHttp.LIMIT)
        .allSatisfy(a -> assertThat(a.status()).as(a.toString()).isEqualTo(status));
  }
}
