package io.okapigw.core.server;

import io.okapigw.core.http.Failures;
import io.okapigw.core.http.HttpError;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.TimeUnit;

/**
 * One client connection's header timeout, and its end after a body that cannot be read on. Complete
 * request headers must arrive within the timeout of the connection opening or of the previous
 * response ending; the connection is closed otherwise. Confined to the connection's event loop.
 *
 * <p>Cheap per request: {@link #admit} sets two fields and the response's body end handler (this
 * guard's, made once); the timer is not set again per request but, as Netty's {@code
 * IdleStateHandler} does, looks when it fires whether the deadline moved, so a busy connection sets
 * about one timer per timeout.
 */
final class ConnectionGuard implements Handler<Long> {

  private final Vertx vertx;
  private final HttpConnection connection;
  private final long timeoutNanos;
  private final Drain drain;
  private final Handler<Void> responseEnded = v -> responseEnded();
  private HttpServerRequest current;
  private boolean awaitingHead = true;
  private long awaitingSince;
  private boolean timerSet;
  private boolean closing;
  private boolean closeAfterResponse;
  private boolean slotReleased;

  /**
   * @param timeoutNanos the header timeout; 0 for none
   * @param drain whether the node drains
   */
  ConnectionGuard(Vertx vertx, HttpConnection connection, long timeoutNanos, Drain drain) {
    this.drain = drain;
    this.vertx = vertx;
    this.connection = connection;
    this.timeoutNanos = timeoutNanos;
    this.awaitingSince = System.nanoTime();
    setTimer(timeoutNanos);
  }

  /**
   * A request's headers arrived.
   *
   * @return false if the connection is being closed and the request must not be served
   */
  boolean admit(HttpServerRequest request) {
    if (closing) {
      return false;
    }
    current = request;
    awaitingHead = false;
    request.response().bodyEndHandler(responseEnded);
    if (drain.draining()) {
      closeAfter(request.response());
    }
    return true;
  }

  /**
   * The node began to drain: the answer in progress, unless its head is sent, says {@code
   * Connection: close}, and the connection is closed after it (an idle connection is closed by the
   * listener's shutdown, or after its next answer).
   */
  void drain() {
    if (!awaitingHead && !current.response().headWritten()) {
      closeAfter(current.response());
    }
  }

  /**
   * The answer being written says {@code Connection: close} ({@link DrainingAnswers}): the
   * connection is closed once it is sent.
   */
  void closeAfterAnswer() {
    closeAfterResponse = true;
  }

  /**
   * The answer says {@code Connection: close}, and the connection is closed once it is sent: only
   * such an answer's, so a client never finds closed a connection it was not told of.
   */
  private void closeAfter(HttpServerResponse response) {
    response.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
    closeAfterResponse = true;
  }

  /**
   * The body of the request being received cannot be read on (a bad chunk): it is answered 400 if
   * its response has not started, and the connection closed.
   */
  void brokenBody(Throwable cause) {
    closing = true;
    HttpServerRequest request = current;
    if (request == null || request.response().headWritten() || request.response().ended()) {
      connection.close();
      return;
    }
    HttpServerResponse response = request.response();
    response.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
    Failures.respond(response, new HttpError(400, "invalid chunked body: " + cause.getMessage()));
    connection.close();
  }

  /**
   * @return whether the connection is idle: open, waiting for a request's head (nothing sent yet,
   *     or a head not complete), no request in progress
   */
  boolean idle() {
    return awaitingHead && !closing;
  }

  /** Closes the connection, idle, to make room for another. */
  void closeIdle() {
    closing = true;
    connection.close();
  }

  /**
   * @return true the first time only: whether the caller gives the connection's slot of its
   *     listener's limit back
   */
  boolean releaseSlot() {
    boolean first = !slotReleased;
    slotReleased = true;
    return first;
  }

  /** The connection closed: nothing more to watch. */
  void closed() {
    closing = true;
  }

  /** The header timer. */
  @Override
  public void handle(Long timerId) {
    timerSet = false;
    if (closing) {
      return;
    }
    long now = System.nanoTime();
    if (!awaitingHead && current.response().ended()) {
      // its body end handler was replaced: the response ended at the latest now
      startAwaiting(now);
    }
    if (!awaitingHead) {
      setTimer(timeoutNanos);
      return;
    }
    long left = awaitingSince + timeoutNanos - now;
    if (left > 0) {
      setTimer(left);
    } else {
      closing = true;
      connection.close();
    }
  }

  private void responseEnded() {
    if (closeAfterResponse) {
      closing = true;
      connection.close();
      return;
    }
    // a pipelined request may be admitted before the previous response's handler runs
    if (!awaitingHead && current.response().ended()) {
      startAwaiting(System.nanoTime());
    }
  }

  private void startAwaiting(long now) {
    awaitingHead = true;
    awaitingSince = now;
    current = null; // not kept while the connection idles
    setTimer(timeoutNanos);
  }

  private void setTimer(long nanos) {
    if (timeoutNanos > 0 && !timerSet) {
      timerSet = true;
      vertx.setTimer(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos)), this);
    }
  }
}
