package io.okapigw.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.Descriptors;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.process.JavaProcess;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.streams.WriteStream;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 256 MiB up and down through a gateway whose heap is capped at 128 MiB: only streaming with
 * back-pressure survives that. Bytes are checked by count and CRC32 on both ends.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LargeBodyStreamingTest {

  private static final int CHUNK = 64 * 1024;
  private static final int CHUNKS = 4096;
  private static final long TOTAL = (long) CHUNK * CHUNKS;
  private static final Buffer PATTERN = pattern();

  private static Vertx vertx;
  private static JavaProcess gateway;
  private static String gatewayUrl;
  private static HttpClientAgent client;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    HttpServer module =
        vertx
            .createHttpServer()
            .requestHandler(
                req -> {
                  if (req.path().equals("/bulk/upload")) {
                    CRC32 crc = new CRC32();
                    long[] bytes = {0};
                    req.handler(
                        buf -> {
                          bytes[0] += buf.length();
                          crc.update(buf.getBytes());
                        });
                    req.endHandler(
                        v ->
                            req.response()
                                .end(
                                    new JsonObject()
                                        .put("bytes", bytes[0])
                                        .put("crc", crc.getValue())
                                        .encode()));
                  } else {
                    HttpServerResponse resp =
                        req.response().putHeader("Content-Length", Long.toString(TOTAL));
                    writeAll(resp).onSuccess(v -> resp.end());
                  }
                })
            .listen(0, "127.0.0.1")
            .await();
    int port = FreePorts.belowEphemeralRange();
    gatewayUrl = "http://localhost:" + port;
    gateway =
        JavaProcess.launch(
            Jars.gateway(), List.of("-Xmx128m"), List.of("dev", "--port", Integer.toString(port)));
    gateway.awaitReady(gatewayUrl + "/_/version", JavaProcess.PATIENCE);
    AdminCalls admin = AdminCalls.at(gatewayUrl);
    admin.createTenant("diku");
    admin.register(
        Descriptors.module("mod-bulk-1.0.0", "bulk", Descriptors.handler("*", "/bulk/*")),
        "http://127.0.0.1:" + module.actualPort());
    admin.enable("diku", "mod-bulk-1.0.0");
    client = vertx.createHttpClient();
  }

  @AfterAll
  static void stop() {
    if (gateway != null) {
      gateway.close();
    }
    if (vertx != null) {
      vertx.close().await();
    }
  }

  private static Buffer pattern() {
    byte[] bytes = new byte[CHUNK];
    new Random(42).nextBytes(bytes);
    return Buffer.buffer(bytes);
  }

  private static long expectedCrc() {
    CRC32 crc = new CRC32();
    byte[] bytes = PATTERN.getBytes();
    for (int i = 0; i < CHUNKS; i++) {
      crc.update(bytes);
    }
    return crc.getValue();
  }

  /** Writes the pattern CHUNKS times, waiting for drain whenever the stream is full. */
  private static Future<Void> writeAll(WriteStream<Buffer> stream) {
    Promise<Void> done = Promise.promise();
    writeFrom(stream, 0, done);
    return done.future();
  }

  private static void writeFrom(WriteStream<Buffer> stream, int from, Promise<Void> done) {
    stream.drainHandler(null);
    int i = from;
    while (i < CHUNKS && !stream.writeQueueFull()) {
      stream.write(PATTERN);
      i++;
    }
    if (i == CHUNKS) {
      done.complete();
      return;
    }
    int next = i;
    stream.drainHandler(v -> writeFrom(stream, next, done));
  }

  @Test
  void upload256MiB_throughGatewayWith128MiBHeap_arrivesWhole() throws Exception {
    JsonObject result =
        client
            .request(
                new RequestOptions()
                    .setMethod(HttpMethod.POST)
                    .setAbsoluteURI(gatewayUrl + "/bulk/upload")
                    .putHeader("X-Okapi-Tenant", "diku"))
            .compose(
                req -> {
                  req.setChunked(true);
                  return writeAll(req).compose(v -> req.end()).compose(v -> req.response());
                })
            .compose(HttpClientResponse::body)
            .map(Buffer::toJsonObject)
            .await(4, TimeUnit.MINUTES);
    assertThat(result.getLong("bytes")).isEqualTo(TOTAL);
    assertThat(result.getLong("crc")).isEqualTo(expectedCrc());
    assertThat(gateway.isAlive()).isTrue();
  }

  @Test
  void download256MiB_throughGatewayWith128MiBHeap_arrivesWhole() throws Exception {
    CRC32 crc = new CRC32();
    long[] bytes = {0};
    // built on a Vert.x context, so the handler is set before the first chunk arrives
    Promise<Integer> download = Promise.promise();
    vertx.runOnContext(
        v ->
            client
                .request(
                    new RequestOptions()
                        .setMethod(HttpMethod.GET)
                        .setAbsoluteURI(gatewayUrl + "/bulk/download")
                        .putHeader("X-Okapi-Tenant", "diku"))
                .compose(HttpClientRequest::send)
                .compose(
                    resp -> {
                      resp.handler(
                          buf -> {
                            bytes[0] += buf.length();
                            crc.update(buf.getBytes());
                          });
                      return resp.end().map(resp.statusCode());
                    })
                .onComplete(download));
    int status = download.future().await(4, TimeUnit.MINUTES);
    assertThat(status).isEqualTo(200);
    assertThat(bytes[0]).isEqualTo(TOTAL);
    assertThat(crc.getValue()).isEqualTo(expectedCrc());
    assertThat(gateway.isAlive()).isTrue();
  }
}
