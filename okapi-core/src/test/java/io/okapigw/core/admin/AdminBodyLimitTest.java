package io.okapigw.core.admin;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Admin request bodies cannot stall the event loop: a body over {@link AdminApi#MAX_BODY_BYTES} is
 * refused with 413 naming the limit, and one under it is parsed, checked and answered off the event
 * loop, while proxied requests on that same event loop (the fixture runs one) keep being answered.
 * Bounds are generous (1 s); before, a 9 MB descriptor held the loop for seconds.
 */
class AdminBodyLimitTest {

  private static final long PROBE_BOUND_MILLIS = 1_000;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule echo;

  @BeforeEach
  void start() {
    gw.createTenant("diku");
    echo =
        TestModule.start(
            gw.vertx(), router -> router.get("/echo").handler(ctx -> ctx.response().end("ok")));
    gw.install("diku", module("mod-echo-1.0.0", "echo", handler("GET", "/echo")), echo.url());
  }

  @AfterEach
  void stop() {
    echo.close();
  }

  @Test
  void postDescriptor_overLimit_413NamingLimitAndProxiedRequestsKeepFlowing() throws Exception {
    byte[] nineMegabytes = descriptor("mod-huge-1.0.0", 90_000);
    assertThat(nineMegabytes.length).isGreaterThan(8_000_000);

    Probe probe = Probe.start(http, gw.url() + "/echo");
    HttpResponse<String> answer = post(nineMegabytes, false);
    long slowest = probe.stop();

    assertThat(slowest).as("slowest proxied request, ms").isLessThan(PROBE_BOUND_MILLIS);
    assertThat(answer.statusCode()).isEqualTo(413);
    assertThat(answer.body()).contains(Long.toString(AdminApi.MAX_BODY_BYTES));
    gw.request().get("/_/proxy/modules/mod-huge-1.0.0").then().statusCode(404);
  }

  @Test
  void postDescriptor_overLimitWithoutContentLength_413NamingLimit() throws Exception {
    HttpResponse<String> answer = post(descriptor("mod-chunked-1.0.0", 12_000), true);

    assertThat(answer.statusCode()).isEqualTo(413);
    assertThat(answer.body()).contains(Long.toString(AdminApi.MAX_BODY_BYTES));
  }

  @Test
  void postDescriptors_justUnderLimit_201AndProxiedRequestsKeepFlowing() throws Exception {
    List<byte[]> bodies =
        List.of(
            descriptor("mod-big-1.0.0", 10_400),
            descriptor("mod-big-2.0.0", 10_400),
            descriptor("mod-big-3.0.0", 10_400));
    bodies.forEach(b -> assertThat(b.length).isBetween(1_000_000, (int) AdminApi.MAX_BODY_BYTES));

    Probe probe = Probe.start(http, gw.url() + "/echo");
    for (byte[] body : bodies) {
      assertThat(post(body, false).statusCode()).isEqualTo(201);
    }
    long slowest = probe.stop();

    assertThat(slowest).as("slowest proxied request, ms").isLessThan(PROBE_BOUND_MILLIS);
    gw.request().get("/_/proxy/modules/mod-big-3.0.0").then().statusCode(200);
  }

  @Test
  void limit_isAboutTenTimesTheLargestRealFolioDescriptor() {
    // mod-circulation's descriptor, the largest we know, is 107,936 bytes (FolioDescriptorTest)
    assertThat(AdminApi.MAX_BODY_BYTES).isBetween(5 * 107_936L, 20 * 107_936L);
  }

  private HttpResponse<String> post(byte[] body, boolean chunked) throws Exception {
    HttpRequest.BodyPublisher publisher =
        chunked
            ? BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))
            : BodyPublishers.ofByteArray(body);
    return http.send(
        HttpRequest.newBuilder(URI.create(gw.url() + "/_/proxy/modules"))
            .timeout(Duration.ofSeconds(60))
            .POST(publisher)
            .build(),
        BodyHandlers.ofString());
  }

  /** A descriptor with {@code handlers} handlers, about 110 bytes each. */
  private static byte[] descriptor(String id, int handlers) {
    JsonArray entries = new JsonArray();
    for (int i = 0; i < handlers; i++) {
      entries.add(handler("GET", "/big" + i + "/{id}/sub", "big.item" + i + ".get"));
    }
    return new JsonObject()
        .put("id", id)
        .put(
            "provides",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("id", id.replace('.', '-'))
                        .put("version", "1.0")
                        .put("handlers", entries)))
        .encode()
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Sends a proxied GET after another from a thread of its own; remembers the slowest. It is
   * started once a first GET was answered, and stopped once two more were answered after the admin
   * calls returned, so it covers the whole of them.
   */
  private static final class Probe {

    private static final int TIMEOUT_SECONDS = 30;

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong slowestMillis = new AtomicLong();
    private final Semaphore answered = new Semaphore(0);
    private final CompletableFuture<Void> done;

    private Probe(HttpClient http, String url) {
      done =
          CompletableFuture.runAsync(
              () -> {
                HttpRequest get =
                    HttpRequest.newBuilder(URI.create(url))
                        .header("X-Okapi-Tenant", "diku")
                        .timeout(Duration.ofSeconds(TIMEOUT_SECONDS))
                        .build();
                while (running.get()) {
                  try {
                    long start = System.nanoTime();
                    int status = http.send(get, BodyHandlers.ofString()).statusCode();
                    slowestMillis.accumulateAndGet(
                        (System.nanoTime() - start) / 1_000_000, Math::max);
                    if (status != 200) {
                      throw new AssertionError("proxied GET answered " + status);
                    }
                    answered.release();
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                }
              });
    }

    static Probe start(HttpClient http, String url) throws InterruptedException {
      Probe probe = new Probe(http, url);
      probe.awaitAnswers(1);
      return probe;
    }

    /**
     * @return the slowest answer seen, in milliseconds
     */
    long stop() throws Exception {
      answered.drainPermits();
      awaitAnswers(2);
      running.set(false);
      done.get();
      return slowestMillis.get();
    }

    private void awaitAnswers(int count) throws InterruptedException {
      if (!answered.tryAcquire(count, TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        done.getNow(null); // the probe's own failure, if it failed
        throw new AssertionError("the probe got no answer for " + TIMEOUT_SECONDS + " s");
      }
    }
  }
}
