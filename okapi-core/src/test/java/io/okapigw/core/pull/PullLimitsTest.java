package io.okapigw.core.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;

import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A remote registry that answers {@code /_/proxy/modules} with too much: the pull stops reading at
 * {@code admin.pull-max-bytes} (64 MiB by default) of the decoded answer, a gzip bomb included, and
 * refuses a descriptor larger than an admin POST may be (1 MiB), adding nothing either way.
 */
class PullLimitsTest {

  private static final long LIMIT = 64L * 1024 * 1024;
  private static final int MIB = 1024 * 1024;

  private final GatewayFixture local = new GatewayFixture();
  private final AtomicLong sent = new AtomicLong();

  @AfterEach
  void close() {
    local.close();
  }

  /** A registry answering its version, and {@code modules} to {@code /_/proxy/modules}. */
  private String remote(Handler<HttpServerResponse> modules) {
    HttpServer server =
        local
            .vertx()
            .createHttpServer()
            .requestHandler(
                (HttpServerRequest r) -> {
                  if (r.path().equals("/_/version")) {
                    r.response().end("6.1.5");
                  } else {
                    modules.handle(r.response());
                  }
                })
            .listen(0)
            .await();
    return "http://localhost:" + server.actualPort();
  }

  private String pull(String url, int status) {
    return local
        .request()
        .body(new JsonObject().put("urls", new JsonArray().add(url)).encode())
        .post("/_/proxy/pull/modules")
        .then()
        .statusCode(status)
        .extract()
        .asString();
  }

  private void nothingAdded() {
    local.request().get("/_/proxy/modules").then().body("$", hasSize(1));
  }

  /** Writes {@code [} and descriptors of about 1 KiB until {@code total} bytes, then {@code ]}. */
  private void stream(HttpServerResponse response, long total) {
    response.setChunked(true);
    response.exceptionHandler(e -> {});
    write(response, Buffer.buffer("["), total, new long[] {0});
  }

  private void write(HttpServerResponse response, Buffer piece, long total, long[] n) {
    Buffer next = piece;
    while (!response.writeQueueFull()) {
      if (response.closed()) {
        return;
      }
      sent.addAndGet(next.length());
      response.write(next);
      if (sent.get() >= total) {
        response.end(",{\"id\":\"mod-last-1.0.0\"}]");
        return;
      }
      StringBuilder chunk = new StringBuilder();
      for (int i = 0; i < 64; i++) {
        chunk.append(n[0]++ == 0 ? "{" : ",{").append("\"id\":\"mod-x-1.0.").append(n[0]);
        chunk.append("\",\"name\":\"").append("x".repeat(1000)).append("\"}");
      }
      next = Buffer.buffer(chunk.toString());
    }
    Buffer queued = next;
    response.drainHandler(v -> write(response, queued, total, n));
  }

  @Test
  void pull_answerLargerThanTheLimit_502NamingIt_readingStopped_nothingAdded() {
    String url = remote(response -> stream(response, LIMIT + 40L * MIB));

    String answer = pull(url, 502);

    assertThat(answer).contains("admin.pull-max-bytes").contains("64MB");
    assertThat(sent.get())
        .as("bytes the remote could write before the gateway stopped reading")
        .isLessThan(LIMIT + 16L * MIB);
    nothingAdded();
  }

  @Test
  void pull_gzipBombDecodingPastTheLimit_502NamingIt_nothingAdded() {
    byte[] bomb = gzip(LIMIT + 36L * MIB);
    assertThat(bomb.length).as("the bomb on the wire").isLessThan(MIB);
    String url =
        remote(response -> response.putHeader("Content-Encoding", "gzip").end(Buffer.buffer(bomb)));

    local
        .request()
        .body(new JsonObject().put("urls", new JsonArray().add(url)).encode())
        .post("/_/proxy/pull/modules")
        .then()
        .statusCode(502)
        .body(containsString("admin.pull-max-bytes"));
    nothingAdded();
  }

  @Test
  void pull_descriptorLargerThanAnAdminPost_400NamingIt_nothingAdded() {
    String big =
        new JsonArray()
            .add(new JsonObject().put("id", "mod-small-1.0.0"))
            .add(new JsonObject().put("id", "mod-big-1.0.0").put("name", "b".repeat(MIB + 1)))
            .encode();
    String url = remote(response -> response.end(big));

    String answer = pull(url, 400);

    assertThat(answer).contains("mod-big-1.0.0").contains("1MB");
    nothingAdded();
  }

  @Test
  void pull_descriptorJustUnderTheAdminPostLimit_added() {
    String fits =
        new JsonArray()
            .add(new JsonObject().put("id", "mod-fits-1.0.0").put("name", "f".repeat(MIB - 100)))
            .encode();
    String url = remote(response -> response.end(fits));

    pull(url, 200);

    local.request().get("/_/proxy/modules").then().body("$", hasSize(2));
  }

  /** {@code [{"id":"mod-bomb-1.0.0","name":"aaa..."}]}, {@code decoded} bytes, gzipped. */
  private static byte[] gzip(long decoded) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes, 64 * 1024)) {
      byte[] head = "[{\"id\":\"mod-bomb-1.0.0\",\"name\":\"".getBytes(StandardCharsets.UTF_8);
      byte[] tail = "\"}]".getBytes(StandardCharsets.UTF_8);
      byte[] block = new byte[MIB];
      Arrays.fill(block, (byte) 'a');
      out.write(head);
      for (long left = decoded - head.length - tail.length; left > 0; left -= block.length) {
        out.write(block, 0, (int) Math.min(block.length, left));
      }
      out.write(tail);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}
