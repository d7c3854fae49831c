package io.okapigw.core.upstream;

import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.routing.Instances;
import io.okapigw.core.upstream.CallFailures.BadAnswer;
import io.okapigw.core.upstream.balance.Pick;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call to one module instance, opened by the {@link ModuleClient}: its kind, the module and the
 * instance chosen, the request (its headers still to be written), and the ways to finish it. Every
 * failure of it is mapped once ({@link #fail}, see {@link CallFailures}). Confined to the event
 * loop it was opened on.
 */
public final class ModuleCall {

  private static final Logger log = LoggerFactory.getLogger(ModuleCall.class);

  /**
   * A module's answer to a call sent whole: its status and headers, and (the start of) its body.
   */
  public record Answer(int status, MultiMap headers, Buffer body) {}

  /**
   * Where a call goes, whichever instance it gets: kept so that it can go to another.
   *
   * @param underInstancePath whether {@code uri} goes under the instance's path (system calls)
   */
  record Target(
      CallKind kind,
      Instances instances,
      HttpMethod method,
      String uri,
      boolean underInstancePath,
      long timeoutMillis) {}

  private final ModuleClient client;
  private final Target target;
  private final String moduleId;
  private final Endpoint instance;
  private final Pick pick;
  private final List<Endpoint> tried;
  private final boolean resent;
  private final long startNanos = System.nanoTime();
  private HttpClientRequest request;
  private boolean abandoned;

  /**
   * @param pick the instance chosen; null for none (or a health check's, chosen by its caller)
   * @param before the instances this request failed on before
   * @param resent whether the request was already sent again after a reset
   */
  ModuleCall(
      ModuleClient client,
      Target target,
      String moduleId,
      Pick pick,
      Endpoint instance,
      List<Endpoint> before,
      boolean resent) {
    this.client = client;
    this.target = target;
    this.moduleId = moduleId;
    this.pick = pick;
    this.instance = pick == null ? instance : pick.endpoint();
    this.resent = resent;
    if (this.instance == null) {
      this.tried = before;
    } else if (before.isEmpty()) {
      this.tried = List.of(this.instance);
    } else {
      List<Endpoint> all = new ArrayList<>(before);
      all.add(this.instance);
      this.tried = all;
    }
  }

  ModuleCall opened(HttpClientRequest opened) {
    this.request = opened;
    if (pick != null) {
      pick.opened();
    }
    return this;
  }

  /**
   * @return why the module is called
   */
  public CallKind kind() {
    return target.kind();
  }

  /**
   * @return the module called
   */
  public String moduleId() {
    return moduleId;
  }

  /**
   * @return the instance the call goes to; null when the module had none
   */
  public Endpoint instance() {
    return instance;
  }

  /**
   * @return the request to the instance; null until opened
   */
  public HttpClientRequest request() {
    return request;
  }

  /**
   * @return how long the instance may stay silent (the request's idle timeout); 0 for no limit
   */
  public long timeoutMillis() {
    return target.timeoutMillis();
  }

  /**
   * @return whether the gateway gave the call up ({@link #abandon}) before it was over
   */
  boolean abandoned() {
    return abandoned;
  }

  Target target() {
    return target;
  }

  Pick pick() {
    return pick;
  }

  /**
   * @return the instances this request went to, this call's last
   */
  List<Endpoint> tried() {
    return tried;
  }

  /**
   * @return whether this call is the request sent again after a reset
   */
  boolean resent() {
    return resent;
  }

  /**
   * @return when the call was opened ({@link System#nanoTime()})
   */
  public long startNanos() {
    return startNanos;
  }

  /**
   * @return the call for a message: {@code module M at URL}; a system call also names its method
   *     and path
   */
  public String describe() {
    String at = "module " + moduleId + (instance == null ? "" : " at " + instance.url());
    return kind() == CallKind.SYSTEM
        ? "system call " + target.method() + " " + target.uri() + " to " + at
        : at;
  }

  /**
   * @return a failed future of {@code failure} mapped as every caller takes it ({@link
   *     CallFailures#map})
   */
  public <T> Future<T> fail(Throwable failure) {
    return Future.failedFuture(CallFailures.map(this, failure));
  }

  /**
   * Sends the request whole and reads the module's final answer to its end, keeping at most {@code
   * keep.applyAsInt(status)} bytes of its body (the rest is read and dropped).
   *
   * @param body the body; null to send none ({@code end()} with no body at all)
   * @return the answer; failures mapped ({@link #fail})
   */
  public Future<Answer> exchange(Buffer body, IntUnaryOperator keep) {
    Future<HttpClientResponse> sent = body == null ? request.send() : request.send(body);
    return sent.map(ModuleCall::finalAnswer)
        .compose(
            response ->
                read(response, keep.applyAsInt(response.statusCode()))
                    .map(kept -> new Answer(response.statusCode(), response.headers(), kept)))
        .recover(this::fail);
  }

  /**
   * Reads a module's answer to its end, keeping at most {@code max} bytes of the body; the rest is
   * read and dropped. The body must end within the call's timeout of the head (Vert.x times out
   * only the wait for the head): one that does not is {@linkplain #abandon abandoned}, its
   * connection closed rather than kept busy or pooled with the answer half-read, and the future
   * fails with a {@link TimeoutException}.
   *
   * @return the first {@code max} bytes of the body
   */
  public Future<Buffer> read(HttpClientResponse response, int max) {
    Buffer kept = Buffer.buffer();
    response.handler(
        chunk -> kept.appendBuffer(chunk, 0, Math.min(chunk.length(), max - kept.length())));
    Future<Void> ended = response.end();
    if (timeoutMillis() > 0) {
      ended = ended.timeout(timeoutMillis(), TimeUnit.MILLISECONDS);
    }
    return ended.onFailure(e -> abandon(true)).map(kept);
  }

  /**
   * The module's final answer, as every caller takes it: an informational status (1xx) as the final
   * answer, a {@code 101 Switching Protocols} above all (the gateway forwards no {@code Upgrade},
   * so it never asks for one), throws a {@link BadAnswer} (502 through {@link #fail}) and its
   * connection is closed: it is never relayed, nor the connection pooled to read the next answer
   * from bytes of another protocol.
   *
   * @return {@code response}, a final answer
   * @throws BadAnswer for a 1xx
   */
  public static HttpClientResponse finalAnswer(HttpClientResponse response) {
    int status = response.statusCode();
    if (status >= 200) {
      return response;
    }
    HttpConnection connection = response.request().connection();
    // what follows the head is not HTTP: Vert.x would log an ERROR for it before the close
    connection.exceptionHandler(ModuleCall::debug);
    connection.close();
    throw new BadAnswer(
        "answered "
            + status
            + (response.statusMessage() == null ? "" : " " + response.statusMessage())
            + " as its final answer, to a request that asked for no upgrade");
  }

  /**
   * Keeps the request's idle timeout from firing while the client's body keeps moving (see {@link
   * UploadWatch}). To be called on the request's event loop, once its head is sent.
   *
   * @param in the client's request whose body is streamed to this call
   * @return stops the watch: to be called once the body is all sent or the exchange given up
   */
  public Runnable watchUpload(HttpServerRequest in) {
    return UploadWatch.start(client.vertx(), request, in, timeoutMillis());
  }

  /**
   * Gives the call up so that its connection never goes back to the pool dirty. HTTP/1.1 cancels a
   * request only by closing its connection, and {@code reset()} does that while the response is
   * still coming; but once the response has come in full, {@code reset()} only forgets the request
   * and returns the connection to the pool, and a request whose body was not all sent would go back
   * half-written: the module would read the next request on it as the rest of that body and hang
   * it. Such a connection is closed here (safe: a request not yet ended keeps its connection out of
   * the pool).
   *
   * @param sentWhole whether the request has been ended (its body, if any, all written)
   */
  public void abandon(boolean sentWhole) {
    abandoned = true;
    if (sentWhole) {
      request.reset();
    } else {
      request.connection().close();
    }
  }

  /**
   * Vert.x logs every exception of a request or response without an exception handler (a reset or
   * closed connection: {@code HttpClientRequestImpl - Stream reset}, or a stack trace from {@code
   * HttpClientResponseImpl}), one or more lines each, however many. The callers learn of it through
   * their futures and answer and log it once, rate-limited ({@code Failures}); here it is only a
   * debug line. So are bytes that follow the last answer of a connection. (The response's handler
   * is set by the {@link ModuleClient} when it comes.)
   */
  void quiet(boolean lastOnConnection) {
    request.exceptionHandler(ModuleCall::debug);
    if (lastOnConnection) {
      // bytes a module sends after its answer (a body after a HEAD's) are not an answer: Vert.x
      // would log an ERROR for them before the connection closes
      request.connection().exceptionHandler(ModuleCall::debug);
    }
  }

  static void debug(Throwable failure) {
    log.debug("module connection: {}", failure.toString());
  }
}
