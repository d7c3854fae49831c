package io.okapigw.core.proxy;

import io.okapigw.core.http.Framing;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.LogText;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.http.RequestIds;
import io.okapigw.core.routing.Stage;
import io.okapigw.core.upstream.CallKind;
import io.okapigw.core.upstream.ModuleCall;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pre and post filters (Okapi's {@code headers} type): the client's headers, no body, {@code
 * X-Okapi-Filter: pre|post <pathPattern>}. As in Okapi 6.1.5, what a filter answers does not change
 * the request: a pre filter's status is ignored (a filter that cannot be reached, or whose answer
 * does not end within {@code proxy.idle-timeout}, fails the request, naming it); post filters are
 * told the handler's status and headers, or the auth filter's refusal, and cannot change the
 * response. Every answer is read to its end, or given up with its connection ({@link
 * ModuleCall#read}).
 */
final class FilterCalls {

  private static final Logger log = LoggerFactory.getLogger(FilterCalls.class);

  private final ModuleClient modules;

  FilterCalls(ModuleClient modules) {
    this.modules = modules;
  }

  /** Runs the pre filters one after another; fails only if one cannot be reached. */
  Future<ProxyRequest> pre(ProxyRequest request) {
    return pre(request, null);
  }

  /**
   * Runs the pre filters after the auth filter refused the request, telling them its status.
   * Failures are logged: the client gets the refusal in any case.
   */
  Future<Void> preAfterRefusal(ProxyRequest request, int authStatus) {
    return pre(request, authStatus)
        .onFailure(e -> log.warn("pre filter failed: {}", LogText.message(e)))
        .<Void>mapEmpty()
        .otherwiseEmpty();
  }

  /** Tells the post filters the handler's status and headers; failures are logged. */
  void post(ProxyRequest request, int handlerStatus, MultiMap handlerHeaders) {
    MultiMap extra =
        MultiMap.caseInsensitiveMultiMap()
            .set(OkapiHeaders.HANDLER_RESULT, Integer.toString(handlerStatus))
            .set(OkapiHeaders.HANDLER_HEADERS, json(handlerHeaders));
    request.pipeline().post().forEach(stage -> post(request, stage, extra));
  }

  /** Tells the post filters the auth filter's refusal; failures are logged. */
  void postAfterRefusal(ProxyRequest request, int authStatus, MultiMap authHeaders) {
    MultiMap extra =
        MultiMap.caseInsensitiveMultiMap()
            .set(OkapiHeaders.AUTH_RESULT, Integer.toString(authStatus))
            .set(OkapiHeaders.AUTH_HEADERS, json(authHeaders));
    request.pipeline().post().forEach(stage -> post(request, stage, extra));
  }

  private Future<ProxyRequest> pre(ProxyRequest request, Integer authStatus) {
    MultiMap extra = MultiMap.caseInsensitiveMultiMap();
    if (authStatus != null) {
      extra.set(OkapiHeaders.AUTH_RESULT, authStatus.toString());
    }
    Future<ProxyRequest> chain = Future.succeededFuture(request);
    for (Stage stage : request.pipeline().pre()) {
      chain = chain.compose(r -> call(r, stage, extra).map(r));
    }
    return chain;
  }

  private void post(ProxyRequest request, Stage stage, MultiMap extra) {
    call(request, stage, extra)
        .onFailure(
            e -> log.warn("post filter {} failed: {}", stage.moduleId(), LogText.message(e)));
  }

  /**
   * Calls the filter and reads its answer to the end (within the idle timeout). A pre filter of
   * type {@code request-response} that answers with {@code X-Okapi-Stop} ends the pipeline with its
   * answer, as in Okapi: the call fails with {@link Stopped}.
   */
  private Future<Void> call(ProxyRequest request, Stage stage, MultiMap extra) {
    boolean stoppable =
        "pre".equals(stage.entry().phase()) && "request-response".equals(stage.entry().type());
    return modules
        .open(CallKind.FILTER, stage, request.in().method(), request.uriFor(stage))
        .compose(
            call ->
                writeHeaders(request, stage, extra, call)
                    .exchange(null, status -> stoppable ? STOP_BODY + 1 : 0))
        .map(
            answer -> {
              if (stoppable && answer.headers().contains(OkapiHeaders.STOP)) {
                if (answer.body().length() > STOP_BODY) {
                  // never an answer cut short relayed as whole
                  throw HttpError.badGateway(
                      "pre filter "
                          + stage.moduleId()
                          + " ended the pipeline with an answer over "
                          + STOP_BODY
                          + " bytes, the most relayed whole");
                }
                throw new Stopped(answer);
              }
              return ignored(stage, answer);
            });
  }

  /** Largest body of a pre filter's answer that ends the pipeline. */
  private static final int STOP_BODY = 1024 * 1024;

  /** A pre filter ended the pipeline with its answer ({@code X-Okapi-Stop}). */
  static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient ModuleCall.Answer answer;

    Stopped(ModuleCall.Answer answer) {
      super("X-Okapi-Stop", null, false, false);
      this.answer = answer;
    }

    /**
     * Sends the filter's answer to the client.
     *
     * @return its status
     */
    Future<Integer> answer(HttpServerRequest in) {
      HttpServerResponse out = in.response();
      OkapiHeaders.copyForwardable(answer.headers(), out.headers());
      RequestIds.hideKeys(out.headers());
      out.setStatusCode(answer.status());
      Framing.whole(answer.status(), in.method() == HttpMethod.HEAD, answer.body().length())
          .writeTo(out);
      return out.end(answer.body()).map(answer.status());
    }
  }

  private static ModuleCall writeHeaders(
      ProxyRequest request, Stage stage, MultiMap extra, ModuleCall call) {
    MultiMap headers = call.headers();
    request.writeModuleHeaders(call, stage);
    headers.set(OkapiHeaders.FILTER, stage.filterHeader()).addAll(extra);
    return call;
  }

  private static Void ignored(Stage stage, ModuleCall.Answer answer) {
    if (answer.status() / 100 != 2) {
      log.debug(
          "{} filter of {} answered {}; ignored, as Okapi does",
          stage.entry().phase(),
          stage.moduleId(),
          answer.status());
    }
    return null;
  }

  private static String json(MultiMap headers) {
    JsonObject json = new JsonObject();
    for (Map.Entry<String, String> header : headers) {
      json.put(header.getKey(), header.getValue());
    }
    return json.encode();
  }
}
