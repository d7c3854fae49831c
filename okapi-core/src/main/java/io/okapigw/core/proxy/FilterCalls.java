package io.okapigw.core.proxy;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.routing.Stage;
import io.okapigw.core.upstream.UpstreamClient;
import io.okapigw.core.upstream.UpstreamClient.Target;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClientResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pre and post filters (Okapi's {@code headers} type): the client's headers, no body, the
 * client's original token. A pre filter that answers non-2xx stops the request with its answer;
 * post filters are told the handler's status and cannot change the response.
 */
final class FilterCalls {

  private static final Logger log = LoggerFactory.getLogger(FilterCalls.class);
  private static final int MAX_BODY = 64 * 1024;

  private final UpstreamClient upstream;

  FilterCalls(UpstreamClient upstream) {
    this.upstream = upstream;
  }

  /** Runs the pre filters one after another; fails with the first refusal. */
  Future<ProxyRequest> pre(ProxyRequest request) {
    Future<ProxyRequest> chain = Future.succeededFuture(request);
    for (Stage stage : request.pipeline().pre()) {
      chain = chain.compose(r -> call(r, stage, "pre", null).compose(this::passOrStop).map(r));
    }
    return chain;
  }

  /** Tells the post filters the handler's status; failures are logged, not returned. */
  void post(ProxyRequest request, int handlerStatus) {
    if (request.pipeline().post().isEmpty()) {
      return;
    }
    for (Stage stage : request.pipeline().post()) {
      call(request, stage, "post", handlerStatus)
          .compose(HttpClientResponse::end)
          .onFailure(e -> log.warn("post filter {} failed: {}", stage.moduleId(), e.getMessage()));
    }
  }

  private Future<HttpClientResponse> call(ProxyRequest request, Stage stage, String phase,
      Integer handlerStatus) {
    return upstream.open(stage, request.in().method(), request.in().uri())
        .compose(target -> send(request, stage, phase, handlerStatus, target)
            .recover(UpstreamClient.failureFor(target)));
  }

  private static Future<HttpClientResponse> send(ProxyRequest request, Stage stage, String phase,
      Integer handlerStatus, Target target) {
    MultiMap headers = target.request().headers();
    OkapiHeaders.copyForwardable(request.in().headers(), headers);
    headers.remove("Content-Length");
    request.applyOkapiHeaders(headers, stage, true);
    headers.set(OkapiHeaders.FILTER, phase).set("Content-Length", "0");
    if (handlerStatus != null) {
      headers.set(OkapiHeaders.HANDLER_RESULT, Integer.toString(handlerStatus));
    }
    return target.request().send();
  }

  private Future<Void> passOrStop(HttpClientResponse response) {
    if (response.statusCode() / 100 == 2) {
      return response.end();
    }
    String type = response.getHeader("Content-Type");
    return response.body().compose(body -> Future.failedFuture(new HttpError(
        response.statusCode(),
        body.length() > MAX_BODY ? body.getString(0, MAX_BODY) : body.toString(),
        type == null ? "text/plain; charset=utf-8" : type)));
  }
}
