package io.okapigw.core.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.timeout.ReadTimeoutException;
import io.netty.handler.timeout.WriteTimeoutException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.StreamResetException;
import java.net.ConnectException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Which failures {@link CallFailures} answers with 504 (a timeout) rather than 502. */
class TimeoutFailureTest {

  private static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void closeVertx() {
    vertx.close().await();
  }

  @Test
  void futureTimeout_isATimeout() {
    Throwable failure = failureOf(Promise.promise().future().timeout(10, TimeUnit.MILLISECONDS));
    assertThat(CallFailures.isTimeout(failure)).isTrue();
  }

  @Test
  void requestIdleTimeout_isATimeout() {
    HttpServer silent = vertx.createHttpServer().requestHandler(request -> {}).listen(0).await();
    HttpClientAgent client = vertx.createHttpClient();
    try {
      Throwable failure =
          failureOf(
              client
                  .request(
                      new RequestOptions()
                          .setMethod(HttpMethod.GET)
                          .setHost("localhost")
                          .setPort(silent.actualPort())
                          .setURI("/")
                          .setIdleTimeout(100))
                  .compose(request -> request.send()));
      assertThat(failure).isNotNull();
      assertThat(CallFailures.isTimeout(failure)).isTrue();
    } finally {
      client.close().await();
      silent.close().await();
    }
  }

  @Test
  void nettyConnectTimeout_isATimeout() {
    assertThat(
            CallFailures.isTimeout(
                new ConnectTimeoutException("connection timed out: localhost/127.0.0.1:9")))
        .isTrue();
  }

  @Test
  void nettyReadAndWriteTimeouts_areTimeouts() {
    assertThat(CallFailures.isTimeout(ReadTimeoutException.INSTANCE)).isTrue();
    assertThat(CallFailures.isTimeout(WriteTimeoutException.INSTANCE)).isTrue();
  }

  @Test
  void connectionRefused_isNotATimeout() {
    assertThat(CallFailures.isTimeout(new ConnectException("Connection refused"))).isFalse();
  }

  @Test
  void streamReset_isNotATimeout() {
    assertThat(CallFailures.isTimeout(new StreamResetException(8))).isFalse();
  }

  @Test
  void closedConnection_isNotATimeout() {
    assertThat(CallFailures.isTimeout(new HttpClosedException("closed"))).isFalse();
  }

  @Test
  void anExceptionMerelyNamedTimeout_isNotATimeout() {
    assertThat(CallFailures.isTimeout(new LockTimeoutLookalike())).isFalse();
  }

  private static Throwable failureOf(Future<?> future) {
    return future.<Throwable>transform(ar -> Future.succeededFuture(ar.cause())).await();
  }

  /** Was taken for a timeout when timeouts were told by class name. */
  private static final class LockTimeoutLookalike extends RuntimeException {}
}
