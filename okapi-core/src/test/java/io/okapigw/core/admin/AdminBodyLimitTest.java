package io.okapigw.core.admin;

import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.TestModule;
import io.okapigw.core.testing.ThreadCpu;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Admin request bodies cannot stall the event loop: a body over {@link AdminApi#MAX_BODY_BYTES} is
 * refused with 413 naming the limit without being parsed, and one under it is parsed, checked and
 * answered off the event loop, where proxied requests run; before, a 9 MB descriptor held the loop
 * for seconds. Where the work ran is told by the CPU time of the gateway's event loops and of the
 * worker threads, not by a proxied request's latency beside it: on a busy machine that latency grew
 * past any bound (1,048 ms against 1 s, with two CPU-bound processes beside the build) while the
 * event loop was free.
 */
class AdminBodyLimitTest {

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule echo;
  private ThreadCpu cpu;

  @BeforeEach
  void start() throws Exception {
    gw.createTenant("diku");
    echo =
        TestModule.start(
            gw.vertx(), router -> router.get("/echo").handler(ctx -> ctx.response().end("ok")));
    gw.install("diku", module("mod-echo-1.0.0", "echo", handler("GET", "/echo")), echo.url());
    cpu = ThreadCpu.of(gw.vertx());
  }

  @AfterEach
  void stop() {
    echo.close();
  }

  @Test
  void postDescriptor_overLimit_413NamingLimit_bodyNeitherParsedNorChecked() throws Exception {
    ThreadCpu.Used before = cpu.used();
    assertThat(post(descriptor("mod-big-1.0.0", 10_400), false).statusCode()).isEqualTo(201);
    ThreadCpu.Used accepted = cpu.used().since(before);
    byte[] nineMegabytes = descriptor("mod-huge-1.0.0", 90_000);
    assertThat(nineMegabytes.length).isGreaterThan(8_000_000);

    before = cpu.used();
    HttpResponse<String> answer = post(nineMegabytes, false);
    ThreadCpu.Used refused = cpu.used().since(before);

    assertThat(answer.statusCode()).isEqualTo(413);
    assertThat(answer.body()).contains(Long.toString(AdminApi.MAX_BODY_BYTES));
    assertThat(refused.workers()).as("worker CPU on the refused body, ns").isZero();
    assertThat(refused.eventLoops())
        .as("event-loop CPU on a refused 9 MB body against all CPU on an accepted 1 MB one, ns")
        .isLessThan(accepted.eventLoops() + accepted.workers());
    gw.request().get("/_/proxy/modules/mod-huge-1.0.0").then().statusCode(404);
    gw.tenant("diku").get("/echo").then().statusCode(200);
  }

  @Test
  void postDescriptor_overLimitWithoutContentLength_413NamingLimit() throws Exception {
    HttpResponse<String> answer = post(descriptor("mod-chunked-1.0.0", 12_000), true);

    assertThat(answer.statusCode()).isEqualTo(413);
    assertThat(answer.body()).contains(Long.toString(AdminApi.MAX_BODY_BYTES));
  }

  /**
   * Receiving a body takes the event loop a little CPU; parsing and checking the descriptor, on
   * worker threads, several times as much (measured: 20-35 ms against 130-250 ms a descriptor).
   */
  @Test
  void postDescriptors_justUnderLimit_201_checkedOffTheEventLoop() throws Exception {
    List<byte[]> bodies =
        List.of(
            descriptor("mod-big-1.0.0", 10_400),
            descriptor("mod-big-2.0.0", 10_400),
            descriptor("mod-big-3.0.0", 10_400));
    bodies.forEach(b -> assertThat(b.length).isBetween(1_000_000, (int) AdminApi.MAX_BODY_BYTES));

    ThreadCpu.Used before = cpu.used();
    for (byte[] body : bodies) {
      assertThat(post(body, false).statusCode()).isEqualTo(201);
    }
    ThreadCpu.Used used = cpu.used().since(before);

    assertThat(used.eventLoops())
        .as("event-loop CPU against half the worker CPU, ns")
        .isLessThan(used.workers() / 2);
    gw.request().get("/_/proxy/modules/mod-big-3.0.0").then().statusCode(200);
    gw.tenant("diku").get("/echo").then().statusCode(200);
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
}
