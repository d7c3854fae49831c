package io.okapigw.perf.kit.modules;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.config.Sizes;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The full-fake module over HTTP, and the fixed module's delay. */
class FakeBodyModuleTest {

  private final Vertx vertx = Vertx.vertx();
  private final HttpClientAgent client = vertx.createHttpClient();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  private record Answer(int status, String contentLength, long bytes, long crc) {}

  /**
   * Built on a Vert.x context: from a plain thread the response could end before its handler is set
   * (then {@code handler} throws), because the callbacks would run later on the event loop.
   */
  private Future<Answer> get(String url) {
    Promise<Answer> answer = Promise.promise();
    vertx.runOnContext(v -> fetch(url).onComplete(answer));
    return answer.future();
  }

  private Future<Answer> fetch(String url) {
    return client
        .request(new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url))
        .compose(HttpClientRequest::send)
        .compose(
            response -> {
              CRC32 crc = new CRC32();
              long[] bytes = {0};
              response.handler(
                  chunk -> {
                    crc.update(chunk.getBytes());
                    bytes[0] += chunk.length();
                  });
              return response
                  .end()
                  .map(
                      v ->
                          new Answer(
                              response.statusCode(),
                              response.getHeader("Content-Length"),
                              bytes[0],
                              crc.getValue()));
            });
  }

  @Test
  void get_fakeSize_streamsThatManyBytesWithContentLength_sameEachTime() {
    int port = FakeBodyModule.start(vertx, 0).await().actualPort();
    String url = "http://127.0.0.1:" + port + FakeBodyModule.path(3 * Sizes.MB + 5);
    Answer first = get(url).await();
    Answer second = get(url).await();
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.contentLength()).isEqualTo(Long.toString(3 * Sizes.MB + 5));
    assertThat(first.bytes()).isEqualTo(3 * Sizes.MB + 5);
    assertThat(second.crc()).isEqualTo(first.crc());
  }

  @Test
  void get_otherPath_is404_andTooLarge_is400() {
    int port = FakeBodyModule.start(vertx, 0).await().actualPort();
    assertThat(get("http://127.0.0.1:" + port + "/other").await().status()).isEqualTo(404);
    assertThat(
            get("http://127.0.0.1:" + port + FakeBodyModule.path(FakeBodyModule.MAX_SIZE + 1))
                .await()
                .status())
        .isEqualTo(400);
  }

  @Test
  void fixedModule_withDelay_answersNoSoonerThanTheDelay() {
    int port = FixedModule.start(vertx, 0, 100, Duration.ofMillis(60)).await().actualPort();
    long start = System.nanoTime();
    Answer answer = get("http://127.0.0.1:" + port + "/any").await();
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(Duration.ofMillis(60));
    assertThat(answer.bytes()).isEqualTo(100);
  }
}
