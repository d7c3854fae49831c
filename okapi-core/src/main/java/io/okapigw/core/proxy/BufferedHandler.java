package io.okapigw.core.proxy;

import io.okapigw.core.auth.AuthModuleCalls;
import io.okapigw.core.http.Framing;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.LogText;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.http.RequestIds;
import io.okapigw.core.routing.Stage;
import io.okapigw.core.upstream.ModuleCall;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handlers of Okapi's types other than {@code request-response}, answered as Okapi 6.1.5 answers
 * them (checked side by side). Each reads the client's body whole first, as Okapi does, within
 * {@link BufferOptions} ({@link BufferedBody}: 413 past a request's bound, 503 past the node's):
 *
 * <ul>
 *   <li>{@code request-response-1.0}: the module gets the body with a {@code Content-Length} (not
 *       chunked); its answer goes to the client;
 *   <li>{@code request-only}: the module gets the body; the client gets the module's status and
 *       headers, with its own request body as the body (Okapi's answer: the module's body is
 *       ignored);
 *   <li>{@code headers}: the module gets no body; the client gets the module's status and headers,
 *       with its own request body for a 2xx, else the module's body;
 *   <li>{@code request-log}: the module gets the body and its answer is ignored; the client gets
 *       200 and its own request body.
 * </ul>
 *
 * <p>The client's body answered back goes out under the client's own {@code Content-Type}, with
 * {@code nosniff}, never as what the module said its own body is ({@link #asEcho}).
 */
final class BufferedHandler {

  private static final Logger log = LoggerFactory.getLogger(BufferedHandler.class);

  /** The handler types served here. */
  static final Set<String> TYPES =
      Set.of("request-response-1.0", "request-only", "headers", "request-log");

  /** Headers of a module's answer that describe its body: not sent with the client's body. */
  private static final List<CharSequence> MODULE_BODY_HEADERS =
      List.of(
          HttpHeaders.CONTENT_TYPE,
          HttpHeaders.CONTENT_ENCODING,
          HttpHeaders.CONTENT_DISPOSITION,
          "Content-Language",
          "Content-Location",
          HttpHeaders.CONTENT_RANGE,
          HttpHeaders.ETAG,
          HttpHeaders.LAST_MODIFIED);

  private static final String NOSNIFF_HEADER = "X-Content-Type-Options";

  private final ModuleClient modules;
  private final AuthModuleCalls authModule;
  private final BodyBudget budget;

  /**
   * @param authModule bounds the handler calls to the tenant's auth module
   * @param budget the node's room for bodies read whole
   */
  BufferedHandler(ModuleClient modules, AuthModuleCalls authModule, BodyBudget budget) {
    this.modules = modules;
    this.authModule = authModule;
    this.budget = budget;
  }

  /**
   * @return whether the request's handler is of a type served here
   */
  static boolean serves(ProxyRequest request) {
    String type = request.pipeline().handler().entry().type();
    return type != null && TYPES.contains(type);
  }

  /**
   * @return the status answered, once the client has the whole answer
   */
  Future<Integer> forward(ProxyRequest request) {
    Stage handler = request.pipeline().handler();
    String type = handler.entry().type();
    HttpServerRequest in = request.in();
    BodyBudget.Claim claim = budget.claim();
    Promise<Void> moduleDone = Promise.promise();
    Future<Integer> answered =
        BufferedBody.read(in, claim, budget.options())
            .compose(
                body ->
                    authModule.call(
                        request.identity().tenant(),
                        request.pipeline(),
                        in.response(),
                        timeoutMillis ->
                            Forwarder.open(modules, request, timeoutMillis)
                                .compose(
                                    call ->
                                        exchange(request, handler, type, body, call, moduleDone))));
    // the body's room is given back once neither the client's answer nor the module holds it
    answered.onComplete(
        done -> {
          moduleDone.tryComplete();
          moduleDone.future().onComplete(v -> claim.release());
        });
    return answered;
  }

  private Future<Integer> exchange(
      ProxyRequest request,
      Stage handler,
      String type,
      Buffer body,
      ModuleCall call,
      Promise<Void> moduleDone) {
    request.writeModuleHeaders(call, handler);
    Buffer sent = "headers".equals(type) ? null : body;
    if ("request-log".equals(type)) {
      call.exchange(sent, status -> 0)
          .onFailure(
              e ->
                  log.warn("request-log handler of {}: {}", handler.moduleId(), LogText.message(e)))
          .onComplete(done -> moduleDone.tryComplete());
      return answer(request.in(), 200, null, body, true);
    }
    long max = budget.options().maxBody();
    return call.exchange(sent, status -> (int) Math.min(Integer.MAX_VALUE - 1, max) + 1)
        .compose(
            answer -> {
              boolean ok = answer.status() / 100 == 2;
              boolean echo =
                  !("request-response-1.0".equals(type) || "headers".equals(type) && !ok);
              if (!echo && answer.body().length() > max) {
                // never an answer cut short relayed as whole
                return Future.failedFuture(tooLargeAnswer(handler, type, max));
              }
              return answer(
                  request.in(), answer.status(), answer, echo ? body : answer.body(), echo);
            });
  }

  /**
   * @param echo whether {@code body} is the client's own: then it goes out as {@link #asEcho} says
   */
  private static Future<Integer> answer(
      HttpServerRequest in, int status, ModuleCall.Answer answer, Buffer body, boolean echo) {
    HttpServerResponse out = in.response();
    if (out.headWritten() || out.closed()) {
      return Future.failedFuture(new HttpError(status, "the client's connection is gone"));
    }
    if (answer != null) {
      OkapiHeaders.copyForwardable(answer.headers(), out.headers());
      RequestIds.hideKeys(out.headers());
    }
    if (echo) {
      asEcho(in, out.headers());
    }
    out.setStatusCode(status);
    Framing.whole(status, in.method() == HttpMethod.HEAD, body.length()).writeTo(out);
    return out.end(body).map(status);
  }

  /**
   * The headers of the client's body answered back: none of the module's that describe a body (the
   * module's is not sent), the client's own {@code Content-Type} ({@code application/octet-stream}
   * if it sent none) and {@code X-Content-Type-Options: nosniff}, so that no browser takes what a
   * client posted for the gateway's HTML. Okapi 6.1.5 sends the module's headers with it.
   */
  private static void asEcho(HttpServerRequest in, MultiMap headers) {
    MODULE_BODY_HEADERS.forEach(headers::remove);
    String type = in.getHeader(HttpHeaders.CONTENT_TYPE);
    headers.set(HttpHeaders.CONTENT_TYPE, type == null ? "application/octet-stream" : type);
    headers.set(NOSNIFF_HEADER, "nosniff");
  }

  private static HttpError tooLargeAnswer(Stage handler, String type, long max) {
    return HttpError.badGateway(
        "module "
            + handler.moduleId()
            + " answered a body over "
            + max
            + " bytes ("
            + BufferOptions.MAX_BODY.key()
            + "), which a handler of type "
            + type
            + " relays whole");
  }
}
