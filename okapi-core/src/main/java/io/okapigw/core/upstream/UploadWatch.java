package io.okapigw.core.upstream;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpServerRequest;

/**
 * Keeps a request's idle timeout ({@code proxy.idle-timeout}) from firing while the client's body
 * keeps moving: Vert.x counts only what the module sends back, so an upload that moves all along
 * but lasts longer than the timeout (a large file on a slow link) would be cut with 504. Every
 * quarter of the timeout, while the watch runs, the timeout is set again if the client sent bytes
 * since the last look: a body that stops for the timeout still times out (within one and a quarter
 * timeouts). Runs on the request's event loop.
 */
final class UploadWatch implements Handler<Long> {

  private final Vertx vertx;
  private final HttpClientRequest request;
  private final HttpServerRequest in;
  private final long timeoutMillis;
  private long seen;
  private long timer;
  private boolean stopped;

  private UploadWatch(
      Vertx vertx, HttpClientRequest request, HttpServerRequest in, long timeoutMillis) {
    this.vertx = vertx;
    this.request = request;
    this.in = in;
    this.timeoutMillis = timeoutMillis;
    this.seen = in.bytesRead();
  }

  /**
   * @return stops the watch
   */
  static Runnable start(
      Vertx vertx, HttpClientRequest request, HttpServerRequest in, long timeoutMillis) {
    if (timeoutMillis <= 0) {
      return () -> {};
    }
    UploadWatch watch = new UploadWatch(vertx, request, in, timeoutMillis);
    watch.timer = vertx.setTimer(watch.period(), watch);
    return () -> {
      watch.stopped = true;
      vertx.cancelTimer(watch.timer);
    };
  }

  @Override
  public void handle(Long id) {
    if (stopped) {
      return;
    }
    long read = in.bytesRead();
    if (read != seen) {
      seen = read;
      request.idleTimeout(timeoutMillis);
    }
    timer = vertx.setTimer(period(), this);
  }

  private long period() {
    return Math.max(1, timeoutMillis / 4);
  }
}
