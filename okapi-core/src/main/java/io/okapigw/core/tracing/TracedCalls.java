package io.okapigw.core.tracing;

import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.upstream.CallKind;
import io.okapigw.core.upstream.CallObserver;
import io.okapigw.core.upstream.ModuleCall;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.vertx.core.MultiMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The module client's observer when requests are observed: a client span per call (handler, filter,
 * auth filter, system call, a health check asked by a request), child of the calling request's
 * server span, its W3C {@code traceparent} written into the call's request; and the time each call
 * waited for its answer added to the request's upstream time. Then the next observer (the call
 * metrics).
 */
final class TracedCalls implements CallObserver {

  static final AttributeKey<String> KIND = AttributeKey.stringKey("okapi.call.kind");
  static final AttributeKey<String> MODULE = AttributeKey.stringKey("okapi.module.id");
  static final AttributeKey<String> TENANT = AttributeKey.stringKey("okapi.tenant");
  static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
  static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
  static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
  static final AttributeKey<Long> RESPONSE_SIZE = AttributeKey.longKey("http.response.body.size");
  static final AttributeKey<String> SERVER = AttributeKey.stringKey("server.address");
  static final AttributeKey<Long> PORT = AttributeKey.longKey("server.port");

  private static final TextMapSetter<ModuleCall> HEADERS =
      (call, key, value) -> call.headers().set(key, value);

  private final CallObserver next;
  private final Tracer tracer;
  private final Callers callers;
  private final boolean traceHeaders;

  /** The calls open now, by identity (a call is told answered or failed once). */
  private final Map<ModuleCall, Open> open = new ConcurrentHashMap<>();

  /**
   * @param sentAs the request id the call is known by in {@link Callers} while it runs, or null
   */
  private record Open(Span span, RequestTrace trace, String sentAs) {}

  /**
   * @param tracer makes the spans; null for none (the access log or trace headers only)
   * @param callers learns the calls in flight by their request id; null when tracer is
   * @param traceHeaders whether each answered call gives its request an {@code X-Okapi-Trace} line
   */
  TracedCalls(CallObserver next, Tracer tracer, Callers callers, boolean traceHeaders) {
    this.next = next;
    this.tracer = tracer;
    this.callers = callers;
    this.traceHeaders = traceHeaders;
  }

  @Override
  public void opened(ModuleCall call) {
    next.opened(call);
    RequestTrace trace = RequestTrace.current();
    Span span = tracer == null ? null : start(call, trace);
    String sentAs = null;
    if (span != null) {
      Context context = (trace == null ? Context.root() : trace.context()).with(span);
      W3CTraceContextPropagator.getInstance().inject(context, call, HEADERS);
      if (trace != null && trace.requestId() != null) {
        sentAs = trace.requestId();
        callers.sent(trace.tenant(), sentAs, context);
      }
    }
    if (span != null || trace != null) {
      open.put(call, new Open(span, trace, sentAs));
    }
  }

  @Override
  public void answered(ModuleCall call, int status) {
    next.answered(call, status);
    Open o = open.remove(call);
    if (o == null) {
      return;
    }
    ended(o, call);
    if (traceHeaders && o.trace() != null) {
      o.trace().traceLine(traceLine(call, status));
    }
    if (o.span() != null) {
      Span span = o.span();
      describe(span, call);
      span.setAttribute(STATUS, status);
      ModuleCall.Head head = call.head();
      String length = head == null ? null : head.headers().get("Content-Length");
      if (length != null && length.chars().allMatch(Character::isDigit) && length.length() < 19) {
        span.setAttribute(RESPONSE_SIZE, Long.parseLong(length));
      }
      if (status >= 500 || status < 200) {
        span.setStatus(StatusCode.ERROR);
      }
      span.end();
    }
  }

  @Override
  public void failed(ModuleCall call, Throwable failure) {
    next.failed(call, failure);
    Open o = open.remove(call);
    if (o == null && tracer != null) {
      // failed before it was opened (no instance, refused): a span of its failure alone
      RequestTrace trace = RequestTrace.current();
      o = new Open(start(call, trace), trace, null);
    }
    if (o == null) {
      return;
    }
    ended(o, call);
    if (o.span() != null) {
      describe(o.span(), call);
      o.span().setStatus(StatusCode.ERROR, failure.getClass().getSimpleName());
      o.span().end();
    }
  }

  /**
   * @return Okapi's {@code X-Okapi-Trace} line of an answered call: {@code GET mod-users-19.5.0
   *     http://10.0.0.5:8081/users.. : 200 5214us}, the query (and a fragment) shown as {@code ..}
   */
  static String traceLine(ModuleCall call, int status) {
    Endpoint instance = call.instance();
    String uri = call.uri();
    String base = instance == null ? "" : instance.url().replaceFirst("/+$", "");
    if (instance != null
        && !instance.path().isEmpty()
        && uri.startsWith(instance.path())
        && base.endsWith(instance.path())) {
      // a system call or health check, under the instance's path already
      base = base.substring(0, base.length() - instance.path().length());
    }
    return call.method().name()
        + " "
        + call.moduleId()
        + " "
        + base
        + RequestTrace.tracePath(uri)
        + " : "
        + status
        + " "
        + (System.nanoTime() - call.startNanos()) / 1000
        + "us";
  }

  /** The call's wait is added to its request's upstream time; it is no longer in flight. */
  private void ended(Open o, ModuleCall call) {
    if (o.trace() != null) {
      o.trace().addUpstream(System.nanoTime() - call.startNanos());
    }
    if (o.sentAs() != null) {
      callers.ended(o.trace().tenant(), o.sentAs());
    }
  }

  /**
   * @return the call's span; null for a check the node runs on its own (no request asked for it): a
   *     trace per instance and interval would bury the requests
   */
  private Span start(ModuleCall call, RequestTrace trace) {
    if (trace == null && call.kind() == CallKind.HEALTH) {
      return null;
    }
    SpanBuilder builder =
        tracer
            .spanBuilder(call.kind().tag() + " " + call.moduleId())
            .setSpanKind(SpanKind.CLIENT)
            .setParent(trace == null ? Context.root() : trace.context())
            .setAttribute(KIND, call.kind().tag())
            .setAttribute(MODULE, call.moduleId());
    Endpoint instance = call.instance();
    if (instance != null) {
      builder.setAttribute(SERVER, instance.host()).setAttribute(PORT, (long) instance.port());
    }
    return builder.startSpan();
  }

  /** What the caller wrote into the request by now: its method, tenant and route. */
  private static void describe(Span span, ModuleCall call) {
    if (!call.opened()) {
      return;
    }
    span.setAttribute(METHOD, call.method().name());
    MultiMap headers = call.headers();
    String tenant = headers.get("X-Okapi-Tenant");
    if (tenant != null) {
      span.setAttribute(TENANT, tenant);
    }
    String route = headers.get("X-Okapi-Match-Path-Pattern");
    if (route != null) {
      span.setAttribute(ROUTE, route);
    }
  }
}
