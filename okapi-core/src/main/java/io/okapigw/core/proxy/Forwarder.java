package io.okapigw.core.proxy;

import io.okapigw.core.auth.AuthModuleCalls;
import io.okapigw.core.auth.Grants;
import io.okapigw.core.eureka.SidecarHeaders;
import io.okapigw.core.http.Framing;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.http.RequestIds;
import io.okapigw.core.registry.AuthKind;
import io.okapigw.core.routing.Stage;
import io.okapigw.core.upstream.CallKind;
import io.okapigw.core.upstream.ModuleCall;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * The handler stage: streams the client's body to the handler module and the module's response
 * back, with back-pressure both ways and nothing buffered whole, as one {@link Exchange}. A stream
 * that breaks midway stops the other side, never ended as if complete. A call to the tenant's auth
 * module is bounded as its auth-filter calls are ({@link AuthModuleCalls}).
 */
final class Forwarder {

  private final ModuleClient modules;
  private final AuthModuleCalls authModule;

  /**
   * @param authModule bounds the handler calls to the tenant's auth module
   */
  Forwarder(ModuleClient modules, AuthModuleCalls authModule) {
    this.modules = modules;
    this.authModule = authModule;
  }

  /**
   * @return the handler's status code once its response has been relayed
   */
  Future<Integer> forward(ProxyRequest request) {
    return send(request).compose(exchange -> relay(request, exchange));
  }

  /**
   * Sends the request to the handler. The response comes back paused: not a byte of it moves until
   * {@link #relay} or {@link #discard}.
   */
  Future<Exchange> send(ProxyRequest request) {
    return authModule.call(
        request.identity().tenant(),
        request.pipeline(),
        request.in().response(),
        timeoutMillis ->
            open(modules, request, timeoutMillis).compose(call -> send(request, call)));
  }

  /**
   * Opens the handler call: silent at most {@code timeoutMillis} when the handler is the tenant's
   * auth module ({@link AuthModuleCalls}: {@code auth.handler-timeout}, {@code auth.cold-timeout}
   * in its warm-up), else (0) the module's call timeout.
   */
  static Future<ModuleCall> open(ModuleClient modules, ProxyRequest request, long timeoutMillis) {
    Stage handler = request.pipeline().handler();
    HttpMethod method = request.in().method();
    String uri = request.uriFor(handler);
    return timeoutMillis > 0
        ? modules.open(CallKind.HANDLER, handler, method, uri, timeoutMillis)
        : modules.open(CallKind.HANDLER, handler, method, uri);
  }

  /**
   * Sends the request on {@code call}; if its connection breaks before any answer, and nothing of
   * the client's body was sent (it has none) nor anything answered to the client, the module client
   * decides whether it may go to another instance ({@link ModuleClient#reopen}).
   */
  private Future<Exchange> send(ProxyRequest request, ModuleCall call) {
    Exchange exchange = exchange(request, call);
    return exchange
        .send()
        .recover(
            e ->
                exchange.mayResend()
                    ? modules.reopen(call, e).compose(next -> send(request, next))
                    : call.fail(e));
  }

  /** Streams the handler's response to the client; @return the handler's status code */
  Future<Integer> relay(ProxyRequest request, Exchange exchange) {
    ModuleCall.Head response = exchange.response();
    HttpServerResponse out = request.in().response();
    if (out.headWritten() || out.closed()) {
      // the client was answered meanwhile (its chunked body broke: 400, connection closed) or is
      // gone: the module's answer has nowhere to go
      exchange.abort();
      return Future.failedFuture(
          new HttpError(
              response.status(),
              "module answered "
                  + response.status()
                  + " after the client's request was answered or closed"));
    }
    OkapiHeaders.copyForwardable(response.headers(), out.headers());
    RequestIds.hideKeys(out.headers());
    dropEchoedToken(request, out.headers());
    if (request.auth() == AuthKind.EUREKA) {
      out.headers().remove(SidecarHeaders.SIGNATURE);
    }
    out.setStatusCode(response.status());
    if (response.reason() != null) {
      out.setStatusMessage(response.reason());
    }
    frame(request.in(), response);
    return exchange.relay(out);
  }

  /**
   * Frames the client's answer as the gateway decides from the module's answer as the codec read it
   * ({@link Framing#answer}), never from the headers copied: a header the module's {@code
   * Connection} names cannot take the framing away, nor a copied one keep a framing that does not
   * hold. HTTP/1.0 has no chunks: an answer of a length not known in advance ends with the
   * connection ({@link io.okapigw.core.server.ServerResponse} closes it itself).
   */
  private static void frame(HttpServerRequest in, ModuleCall.Head response) {
    Framing framing =
        Framing.answer(response.status(), in.method() == HttpMethod.HEAD, response.framing());
    framing.writeTo(in.response());
  }

  /**
   * A module that answers with the token it was given (RMB did, RMB-478) must not hand a module
   * token to the client: Okapi drops an {@code X-Okapi-Token} equal to the one the module got; this
   * gateway also drops any other module token of the grant.
   */
  private static void dropEchoedToken(ProxyRequest request, MultiMap headers) {
    String answered = headers.get(OkapiHeaders.TOKEN);
    if (answered != null
        && (answered.equals(request.tokenFor(request.pipeline().handler()))
            || request.grant() != null && Grants.isModuleToken(request.grant(), answered))) {
      headers.remove(OkapiHeaders.TOKEN);
    }
  }

  /** Throws away a response that must not reach the client: its exchange is given up. */
  static Future<Void> discard(Future<Exchange> held) {
    return held.map(
            exchange -> {
              exchange.abort();
              return (Void) null;
            })
        .otherwiseEmpty();
  }

  private Exchange exchange(ProxyRequest request, ModuleCall call) {
    request.writeModuleHeaders(call, request.pipeline().handler());
    return new Exchange(request.in(), call);
  }
}
