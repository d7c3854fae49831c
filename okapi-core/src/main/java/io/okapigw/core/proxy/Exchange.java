package io.okapigw.core.proxy;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.upstream.CallFailures;
import io.okapigw.core.upstream.ModuleCall;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.streams.Pipe;

/**
 * One exchange with a handler module: the client's body streamed up, the module's response streamed
 * down, with back-pressure both ways. When one side breaks, the other is stopped, and the module's
 * connection goes back to the pool only if its request was sent whole:
 *
 * <ul>
 *   <li>the client's body breaks (client gone) or cannot be written (module gone): the module's
 *       side is given up ({@link #abort});
 *   <li>the module's response fails, before or during the relay: the rest of the client's body is
 *       dropped, a started client response reset;
 *   <li>the client's connection closes, at any time from {@link #send} on, or its response fails:
 *       the module's side is given up (a pipe alone would not notice a close while it waits for the
 *       client to drain, nor one that came before it was made);
 *   <li>the module answers in full before the body is all sent (a 413 from a body limit): the rest
 *       of the body is read and dropped, so the client's connection stays usable, and the module's
 *       connection, holding a request sent in part, is closed;
 *   <li>the client's body stops midway: {@code proxy.idle-timeout} runs from the last bytes the
 *       client sent ({@link ModuleCall#watchUpload}), not from the head, and the client is answered
 *       408 and its connection closed, the module not blamed (504 only when the module stopped
 *       reading the body, or answering once it has it).
 * </ul>
 */
final class Exchange {

  private final HttpServerRequest in;
  private final ModuleCall call;
  private final HttpClientRequest upstream;
  private Runnable stopWatch;
  private boolean clientStalled;
  private Pipe<Buffer> upload;
  private Pipe<Buffer> download;
  private boolean sentWhole;
  private boolean aborted;
  private HttpClientResponse response;

  /**
   * @param in the client's request, paused
   * @param call the call to the module, headers written, not yet sent
   */
  Exchange(HttpServerRequest in, ModuleCall call) {
    this.in = in;
    this.call = call;
    this.upstream = call.request();
  }

  /**
   * Sends the request, streaming the client's body.
   *
   * @return this once the module's response head has come; not a byte of the response moves until
   *     {@link #relay} (or {@link #abort})
   */
  Future<Exchange> send() {
    upstream.exceptionHandler(
        e -> {
          noteStall(e);
          abort();
        });
    if (in.response().closed() || in.response().ended()) {
      // the client left, or was answered (a broken body), while the request waited for auth or a
      // connection: its close is past
      abort();
      return Future.failedFuture("the client closed its connection");
    }
    in.response().closeHandler(v -> abort());
    Future<HttpClientResponse> answered = hasBody(in) ? sendBody() : sendWithoutBody();
    return answered
        .map(this::hold)
        .onFailure(
            e -> {
              noteStall(e);
              abort();
            })
        .recover(
            e -> {
              if (!clientStalled) {
                return Future.failedFuture(e);
              }
              // the rest of the body will not be read as a request: the connection cannot go on
              // (and
              // Vert.x would keep it open for a body that does not come)
              in.response()
                  .putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE)
                  .endHandler(v -> in.connection().close());
              return Future.failedFuture(
                  new HttpError(
                      408,
                      "request body incomplete: no bytes for " + call.timeoutMillis() + " ms"));
            });
  }

  /**
   * @return whether the request may go to another instance now that this exchange failed: the
   *     client sent no body (none was read, none sent), still waits, and has been answered nothing
   */
  boolean mayResend() {
    HttpServerResponse out = in.response();
    return upload == null && !clientStalled && !out.closed() && !out.headWritten();
  }

  /**
   * @return the module's response, paused until {@link #relay}
   */
  HttpClientResponse response() {
    return response;
  }

  /** Streams the module's response to {@code out}, whose status and headers are set. */
  Future<Void> relay(HttpServerResponse out) {
    return download
        .to(out)
        .onSuccess(v -> closeIfAnsweredEarly())
        .onFailure(
            e -> {
              out.reset();
              abort();
            });
  }

  /**
   * Gives the exchange up: the module's request is abandoned ({@link ModuleCall#abandon}), the rest
   * of the client's body and of a held response dropped, a relay under way failed. Idempotent.
   */
  void abort() {
    if (aborted) {
      return;
    }
    aborted = true;
    stopWatch();
    if (!sentWhole && upload != null) {
      dropRestOfBody();
    }
    call.abandon(sentWhole);
    if (download != null) {
      download.close();
    }
  }

  private Future<HttpClientResponse> sendWithoutBody() {
    in.resume();
    sentWhole = true;
    return upstream.send();
  }

  private Future<HttpClientResponse> sendBody() {
    upstream.setChunked(!in.headers().contains(HttpHeaders.CONTENT_LENGTH));
    // the head goes now, not with the first body bytes: from here on the request is on the wire,
    // and nothing but abort() can return its connection to the pool before it is sent whole
    upstream.sendHead();
    upload = in.pipe().endOnComplete(false);
    stopWatch = call.watchUpload(in);
    upload.to(upstream).compose(v -> endBody()).onFailure(e -> abort());
    return upstream.response();
  }

  /** The rest of the client's body is read and dropped: the client's connection stays usable. */
  private void dropRestOfBody() {
    upload.close();
    // closing the pipe unset the request's handler; failures from here on are the abort's own
    upstream.exceptionHandler(e -> {});
  }

  private Future<Void> endBody() {
    sentWhole = true;
    stopWatch();
    return upstream.end();
  }

  /**
   * A timeout while the body is still coming and the module takes what comes (its connection's
   * write queue not full): the client stopped sending, not the module answering.
   */
  private void noteStall(Throwable failure) {
    if (!aborted
        && !sentWhole
        && upload != null
        && CallFailures.isTimeout(failure)
        && !upstream.writeQueueFull()) {
      clientStalled = true;
    }
  }

  private void stopWatch() {
    if (stopWatch != null) {
      stopWatch.run();
      stopWatch = null;
    }
  }

  /**
   * The module answered in full before the body was all sent: the rest is not wanted, and the
   * connection holding the request sent in part is closed.
   */
  private void closeIfAnsweredEarly() {
    if (!sentWhole) {
      abort();
    }
  }

  /**
   * The pipe, made now, pauses the response and catches its end or failure while held.
   *
   * @throws CallFailures.BadAnswer for a 1xx as the final answer
   */
  private Exchange hold(HttpClientResponse answer) {
    response = ModuleCall.finalAnswer(answer);
    download = answer.pipe().endOnFailure(false);
    return this;
  }

  private static boolean hasBody(HttpServerRequest in) {
    String length = in.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (length != null) {
      return !"0".equals(length.trim());
    }
    return in.headers().contains(HttpHeaders.TRANSFER_ENCODING);
  }
}
