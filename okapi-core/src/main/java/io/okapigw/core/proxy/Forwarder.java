package io.okapigw.core.proxy;

import io.okapigw.core.auth.Grants;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.upstream.UpstreamClient;
import io.okapigw.core.upstream.UpstreamClient.Target;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.streams.Pipe;

/**
 * The handler stage: streams the client's body to the handler module and the module's response
 * back, with back-pressure both ways and nothing buffered whole. A stream that breaks midway is
 * reset on the other side, never ended as if complete.
 */
final class Forwarder {

  private final UpstreamClient upstream;

  Forwarder(UpstreamClient upstream) {
    this.upstream = upstream;
  }

  /** @return the handler's status code once its response has been relayed */
  Future<Integer> forward(ProxyRequest request) {
    return send(request).compose(response -> relay(request, response));
  }

  /**
   * Sends the request to the handler. The response comes back paused: not a byte of it moves
   * until {@link #relay} or {@link #discard}.
   */
  Future<HttpClientResponse> send(ProxyRequest request) {
    HttpServerRequest in = request.in();
    return upstream.open(request.pipeline().handler(), in.method(), request.handlerUri())
        .compose(target -> sendBody(request, target)
            .map(Forwarder::paused)
            .recover(UpstreamClient.failureFor(target)));
  }

  /** Streams the handler's response to the client; @return the handler's status code */
  Future<Integer> relay(ProxyRequest request, HttpClientResponse response) {
    HttpServerResponse out = request.in().response();
    OkapiHeaders.copyForwardable(response.headers(), out.headers());
    dropEchoedToken(request, out.headers());
    return relay(response, out, request.in().method());
  }

  /**
   * A module that answers with the token it was given (RMB did, RMB-478) must not hand a module
   * token to the client: Okapi drops an {@code X-Okapi-Token} equal to the one the module got;
   * this gateway also drops any other module token of the grant.
   */
  private static void dropEchoedToken(ProxyRequest request, MultiMap headers) {
    String answered = headers.get(OkapiHeaders.TOKEN);
    if (answered != null && (answered.equals(request.tokenFor(request.pipeline().handler()))
        || request.grant() != null && Grants.isModuleToken(request.grant(), answered))) {
      headers.remove(OkapiHeaders.TOKEN);
    }
  }

  /** Throws away a response that must not reach the client: its connection is reset. */
  static Future<Void> discard(Future<HttpClientResponse> response) {
    return response.map(r -> {
      r.request().reset();
      return (Void) null;
    }).otherwiseEmpty();
  }

  private static HttpClientResponse paused(HttpClientResponse response) {
    response.pause();
    return response;
  }

  private Future<HttpClientResponse> sendBody(ProxyRequest request, Target target) {
    HttpServerRequest in = request.in();
    HttpClientRequest out = target.request();
    request.writeModuleHeaders(out.headers(), request.pipeline().handler());
    if (!hasBody(in)) {
      in.resume();
      return out.send();
    }
    out.setChunked(!in.headers().contains(HttpHeaders.CONTENT_LENGTH));
    Pipe<Buffer> pipe = in.pipe().endOnFailure(false);
    pipe.to(out).onFailure(e -> out.reset(0, e));
    return out.response();
  }

  private static Future<Integer> relay(HttpClientResponse response, HttpServerResponse out,
      HttpMethod method) {
    out.setStatusCode(response.statusCode());
    if (response.statusMessage() != null) {
      out.setStatusMessage(response.statusMessage());
    }
    if (!out.headers().contains(HttpHeaders.CONTENT_LENGTH) && mayHaveBody(response, method)) {
      out.setChunked(true);
    }
    // pipe() keeps the held response paused until to() connects it, then resumes it
    Pipe<Buffer> pipe = response.pipe().endOnFailure(false);
    return pipe.to(out)
        .recover(e -> {
          out.reset();
          return Future.failedFuture(e);
        })
        .map(response.statusCode());
  }

  private static boolean hasBody(HttpServerRequest in) {
    String length = in.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (length != null) {
      return !"0".equals(length.trim());
    }
    return in.headers().contains(HttpHeaders.TRANSFER_ENCODING);
  }

  private static boolean mayHaveBody(HttpClientResponse response, HttpMethod method) {
    int status = response.statusCode();
    return method != HttpMethod.HEAD && status != 204 && status != 304 && status >= 200;
  }
}
