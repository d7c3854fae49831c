package io.okapigw.core.proxy;

import io.netty.buffer.ByteBuf;
import io.okapigw.core.http.BodySink;
import io.okapigw.core.http.Framing;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.server.ServerRequest;
import io.okapigw.core.server.ServerResponse;
import io.okapigw.core.upstream.CallFailures;
import io.okapigw.core.upstream.ModuleCall;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

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
 *       client sent (each piece sent moves the call's timeout on), not from the head, and the
 *       client is answered 408 and its connection closed, the module not blamed (504 only when the
 *       module stopped reading the body, or answering once it has it).
 * </ul>
 */
final class Exchange {

  private final ServerRequest in;
  private final ModuleCall call;
  private boolean uploading;
  private boolean clientStalled;
  private boolean aborted;
  private ModuleCall.Head response;
  private Promise<Integer> relayed;

  /**
   * @param in the client's request, paused: a listener's ({@link ServerRequest}) or a wrapper of
   *     it, as every client request is
   * @param call the call to the module, headers written, not yet sent
   */
  Exchange(HttpServerRequest in, ModuleCall call) {
    this.in = ServerRequest.of(in);
    this.call = call;
  }

  /**
   * Sends the request, streaming the client's body.
   *
   * @return this once the module's response head has come; not a byte of the response moves until
   *     {@link #relay} (or {@link #abort})
   */
  Future<Exchange> send() {
    call.failureHandler(
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
    Framing framing;
    try {
      framing = Framing.of(in.headers());
    } catch (HttpError e) {
      abort();
      return Future.failedFuture(e);
    }
    if (framing.hasBody()) {
      sendBody(framing);
    } else {
      sendWithoutBody(framing);
    }
    return call.answered()
        .transform(
            answered -> {
              if (answered.succeeded()) {
                return Future.succeededFuture(hold(answered.result()));
              }
              Throwable e = answered.cause();
              noteStall(e);
              abort();
              if (!clientStalled) {
                return Future.failedFuture(e);
              }
              // the rest of the body will not be read as a request: the connection cannot go on
              // (and Vert.x would keep it open for a body that does not come)
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
    return !uploading && !clientStalled && !out.closed() && !out.headWritten();
  }

  /**
   * @return the head of the module's response; its body waits until {@link #relay}
   */
  ModuleCall.Head response() {
    return response;
  }

  /** The module's body has ended: so does the client's, and the relay once it is written. */
  private void relayEnded(HttpServerResponse out) {
    out.end()
        .onComplete(
            done -> {
              if (done.succeeded()) {
                closeIfAnsweredEarly();
              }
              relayed.tryComplete(response.status());
            });
  }

  /** The module's body broke: the client's answer is reset and the exchange aborted. */
  private void relayFailed(HttpServerResponse out, Throwable failure) {
    out.reset();
    abort();
    relayed.tryFail(failure);
  }

  /**
   * Streams the module's response body to {@code out}, whose status and headers are set.
   *
   * @return the module's status once its body is relayed whole
   */
  Future<Integer> relay(HttpServerResponse out) {
    relayed = Promise.promise();
    call.relay(new Download((ServerResponse) out));
    return relayed.future();
  }

  /**
   * Gives the exchange up: the module's call is abandoned ({@link ModuleCall#abandon}), the rest of
   * the client's body and of a held response dropped, a relay under way failed. Idempotent.
   */
  void abort() {
    if (aborted) {
      return;
    }
    aborted = true;
    if (!call.sentWhole() && uploading) {
      dropRestOfBody();
    }
    call.abandon();
    if (relayed != null) {
      relayed.tryFail(new HttpClosedException("the exchange was given up"));
    }
  }

  private void sendWithoutBody(Framing framing) {
    in.resume();
    call.sendHead(framing);
    call.end();
  }

  /**
   * @param framing the client's body's, as the strict decoder read it: the module's request is
   *     framed so, whatever the headers copied to it say
   */
  private void sendBody(Framing framing) {
    // the head goes now, not with the first body bytes: from here on the request is on the wire,
    // and nothing but abort() can return its connection to the pool before it is sent whole
    call.sendHead(framing);
    call.flush();
    uploading = true;
    call.writabilityHandler(
        () -> {
          if (!aborted && !call.sentWhole()) {
            in.resume();
          }
        });
    in.relayBody(new Upload(in));
  }

  /** The rest of the client's body is read and dropped: the client's connection stays usable. */
  private void dropRestOfBody() {
    in.dropBody();
  }

  /**
   * A timeout while the body is still coming and the module takes what comes (its connection's
   * write buffer not full): the client stopped sending, not the module answering.
   */
  private void noteStall(Throwable failure) {
    if (!aborted
        && !call.sentWhole()
        && uploading
        && CallFailures.isTimeout(failure)
        && call.writable()) {
      clientStalled = true;
    }
  }

  /**
   * The module answered in full before the body was all sent: the rest is not wanted, and the
   * connection holding the request sent in part is closed.
   */
  private void closeIfAnsweredEarly() {
    if (!call.sentWhole()) {
      abort();
    }
  }

  private Exchange hold(ModuleCall.Head answer) {
    response = answer;
    return this;
  }

  /**
   * The client's body to the module, in Netty's buffers: a piece is written as it is read, flushed
   * once per read of the client's connection; reading stops while the module's connection is full.
   */
  private final class Upload implements BodySink {
    private final ServerRequest request;

    Upload(ServerRequest request) {
      this.request = request;
    }

    @Override
    public void chunk(ByteBuf data) {
      call.write(data);
      if (!call.writable()) {
        request.pause();
      }
    }

    @Override
    public void readComplete() {
      call.flush();
    }

    @Override
    public void end() {
      call.end();
    }

    @Override
    public void failed(Throwable failure) {
      abort();
    }
  }

  /**
   * The module's body to the client, in Netty's buffers: a piece is written as it is read, flushed
   * once per read of the module's connection; reading stops while the client's connection is full.
   */
  private final class Download implements BodySink {
    private final ServerResponse out;

    Download(ServerResponse out) {
      this.out = out;
    }

    @Override
    public void chunk(ByteBuf data) {
      out.writeBody(data);
      if (!out.writable()) {
        call.pause();
        out.drainHandler(v -> call.resume());
      }
    }

    @Override
    public void readComplete() {
      out.flush();
    }

    @Override
    public void end() {
      relayEnded(out);
    }

    @Override
    public void failed(Throwable failure) {
      relayFailed(out, failure);
    }
  }
}
