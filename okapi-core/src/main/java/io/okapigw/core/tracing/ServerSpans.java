package io.okapigw.core.tracing;

import io.okapigw.core.callback.CallBacks;
import io.okapigw.core.http.OkapiHeaders;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import java.util.Optional;

/**
 * The server span of a client request (a client's or a module's, calling back through the gateway):
 * child of the {@code traceparent} it came with, else of the module call of its tenant it calls
 * back from ({@link Callers}), named {@code METHOD route}, with the tenant, handler module, status,
 * auth outcome and sizes. Never a user id, a token, a raw path or a query string.
 */
final class ServerSpans {

  static final AttributeKey<String> AUTH = AttributeKey.stringKey("okapi.auth.outcome");
  static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("okapi.request_id");

  /**
   * The first id of the request id chain: the client's request that every module-to-module hop is
   * made for, the same in each of its hops (on every node), for finding them all.
   */
  static final AttributeKey<String> REQUEST_ROOT = AttributeKey.stringKey("okapi.request_id.root");

  static final AttributeKey<Long> REQUEST_SIZE = AttributeKey.longKey("http.request.body.size");
  static final AttributeKey<String> CLIENT = AttributeKey.stringKey("client.address");

  static final String TRACEPARENT = "traceparent";
  static final String TRACESTATE = "tracestate";

  private static final TextMapGetter<MultiMap> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(MultiMap carrier) {
          return carrier.names();
        }

        @Override
        public String get(MultiMap carrier, String key) {
          return carrier == null ? null : carrier.get(key);
        }
      };

  private final Tracer tracer;
  private final Callers callers;
  private final CallBacks calls;

  ServerSpans(Tracer tracer, Callers callers, CallBacks calls) {
    this.tracer = tracer;
    this.callers = callers;
    this.calls = calls;
  }

  /**
   * Starts the span; the client's {@code traceparent} and {@code tracestate} are taken off the
   * request, so that modules get the gateway's (one per call) instead.
   *
   * @param tenant the tenant the request's path names ({@code /_/invoke/tenant/..}); null for the
   *     one its {@code X-Okapi-Tenant} names
   */
  RequestTrace start(HttpServerRequest in, String tenant) {
    MultiMap headers = in.headers();
    Context parent =
        W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, HEADERS);
    headers.remove(TRACEPARENT).remove(TRACESTATE);
    if (!Span.fromContext(parent).getSpanContext().isValid()) {
      parent = callBack(headers, tenant, parent);
    }
    Span span =
        tracer
            .spanBuilder(in.method().name())
            .setSpanKind(SpanKind.SERVER)
            .setParent(parent)
            .setAttribute(TracedCalls.METHOD, in.method().name())
            .startSpan();
    return new RequestTrace(span, parent.with(span));
  }

  /**
   * The call a request calls back from, for its span's parent: a module that passes {@code
   * X-Okapi-Request-Id} on but not {@code traceparent}. The one notion of a call back ({@link
   * CallBacks}): a call in flight for the tenant the request names whose key its id holds (a client
   * cannot know or guess one; a request of another tenant is no call back of it).
   *
   * @return the context of that call's span; else {@code otherwise}
   */
  private Context callBack(MultiMap headers, String pathTenant, Context otherwise) {
    String tenant = pathTenant != null ? pathTenant : headers.get(OkapiHeaders.TENANT);
    return Optional.ofNullable(tenant)
        .flatMap(t -> calls.callerOf(t.trim(), headers.get(OkapiHeaders.REQUEST_ID)))
        .map(call -> callers.caller(call.tenant(), call.requestId()))
        .orElse(otherwise);
  }

  void end(RequestTrace trace, HttpServerRequest in, Tracing.Finished done) {
    Span span = trace.span();
    int status = in.response().getStatusCode();
    if (done.route() != null) {
      span.updateName(in.method().name() + " " + done.route());
      span.setAttribute(TracedCalls.ROUTE, done.route());
    }
    span.setAttribute(TracedCalls.TENANT, done.tenant());
    if (done.moduleId() != null) {
      span.setAttribute(TracedCalls.MODULE, done.moduleId());
    }
    if (done.requestId() != null) {
      span.setAttribute(REQUEST_ID, done.requestId());
      int first = done.requestId().indexOf(';');
      span.setAttribute(
          REQUEST_ROOT, first < 0 ? done.requestId() : done.requestId().substring(0, first));
    }
    if (trace.authOutcome() != null) {
      span.setAttribute(AUTH, trace.authOutcome().label());
    }
    span.setAttribute(TracedCalls.STATUS, status);
    span.setAttribute(REQUEST_SIZE, in.bytesRead());
    span.setAttribute(TracedCalls.RESPONSE_SIZE, in.response().bytesWritten());
    SocketAddress remote = in.remoteAddress();
    if (remote != null && remote.host() != null) {
      span.setAttribute(CLIENT, remote.host());
    }
    if (status >= 500) {
      span.setStatus(StatusCode.ERROR);
    }
    span.end();
  }
}
