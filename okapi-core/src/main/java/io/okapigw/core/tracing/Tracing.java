package io.okapigw.core.tracing;

import io.okapigw.core.callback.CallBacks;
import io.okapigw.core.upstream.CallObserver;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * What a node observes of its requests, wired once per node: OpenTelemetry spans ({@link
 * ServerSpans} for client requests, {@link TracedCalls} for module calls), the JSON {@link
 * AccessLog} and Okapi's {@code X-Okapi-Trace} answer headers. When both are off ({@link
 * TracingOptions} defaults) it does nothing at all: no span, no allocation per request, the module
 * client's observer unchanged.
 */
public final class Tracing {

  private static final String HEALTH = "/_/proxy/health";

  private final OpenTelemetry openTelemetry;
  private final Tracer tracer;
  private final Callers callers;
  private final ServerSpans spans;
  private final AccessLog accessLog;
  private final boolean traceHeaders;
  private final boolean observes;

  private Tracing(
      OpenTelemetry openTelemetry, CallBacks calls, boolean accessLog, boolean traceHeaders) {
    this.openTelemetry = openTelemetry;
    this.tracer = openTelemetry == null ? null : openTelemetry.getTracer("io.okapigw.core");
    this.callers = tracer == null ? null : new Callers();
    this.spans = tracer == null ? null : new ServerSpans(tracer, callers, calls);
    this.accessLog = accessLog ? new AccessLog() : null;
    this.traceHeaders = traceHeaders;
    this.observes = tracer != null || accessLog || traceHeaders;
  }

  /**
   * Starts the OpenTelemetry SDK when tracing is on (configured by {@code options} and the {@code
   * OTEL_*} environment, see {@link TracingOptions}).
   *
   * @param calls the node's calls in flight: which requests are modules' call backs, joining the
   *     trace of the call they serve
   * @throws io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException on a bad {@code OTEL_*}
   *     value
   */
  public static Tracing create(TracingOptions options, CallBacks calls) {
    return new Tracing(
        options.enabled() ? Telemetry.create(options) : null,
        calls,
        options.accessLog(),
        options.traceHeaders());
  }

  /**
   * @return whether requests are observed (spans, access log or trace headers): each then runs on a
   *     Vert.x context of its own, where its trace is kept
   */
  public boolean observes() {
    return observes;
  }

  /**
   * @return the module client's observer: {@code next}, behind the call spans when requests are
   *     observed
   */
  public CallObserver observer(CallObserver next) {
    return observes ? new TracedCalls(next, tracer, callers, traceHeaders) : next;
  }

  /**
   * A client request arrives: its server span starts, child of the client's {@code traceparent}
   * (which the module calls then replace with their own).
   *
   * @param tenant the tenant the request's path names ({@code /_/invoke/tenant/..}); null for the
   *     one its {@code X-Okapi-Tenant} names
   * @return the request's trace, attached to its context; null when nothing is observed
   */
  public RequestTrace start(HttpServerRequest in, String tenant) {
    if (!observes) {
      return null;
    }
    RequestTrace trace =
        spans == null || probe(in)
            ? new RequestTrace(Span.getInvalid(), Context.root())
            : spans.start(in, tenant);
    trace.attach();
    if (traceHeaders) {
      HttpServerResponse response = in.response();
      response.headersEndHandler(v -> trace.writeTraceHeaders(response));
    }
    return trace;
  }

  /**
   * The gateway's own module (the admin API) answers the request: with trace headers on, its {@code
   * X-Okapi-Trace} line is written with the answer, as Okapi writes it ({@code GET okapi-7.0.7
   * /_/proxy/tenants : 200 543us}).
   *
   * @param moduleId the gateway's module
   */
  public void internal(HttpServerRequest in, String moduleId) {
    RequestTrace trace = traceHeaders ? RequestTrace.current() : null;
    if (trace != null) {
      trace.internalCall(
          in.method().name() + " " + moduleId + " " + RequestTrace.tracePath(in.uri()));
    }
  }

  /**
   * @return whether the request is a load balancer's probe of the node ({@code GET
   *     /_/proxy/health}, every second or two): no span (a trace each would bury the requests), but
   *     its access log line
   */
  private static boolean probe(HttpServerRequest in) {
    return in.method() == HttpMethod.GET && HEALTH.equals(in.path());
  }

  /**
   * The request is answered (or failed): its span ends and its access log line is written.
   *
   * @param trace from {@link #start}; nothing happens for null
   * @param done what the pipeline knew of the request
   */
  public void end(RequestTrace trace, HttpServerRequest in, Finished done) {
    if (trace == null) {
      return;
    }
    if (spans != null) {
      spans.end(trace, in, done);
    }
    if (accessLog != null) {
      accessLog.write(trace, in, done);
    }
  }

  /**
   * What the pipeline knew of a request when it ended.
   *
   * @param tenant the tenant, or {@code unknown}
   * @param requestId the hop's X-Okapi-Request-Id, or null if it was not routed
   * @param route the handler's path pattern, or null if it was not routed
   * @param moduleId the handler's module, or null
   */
  public record Finished(String tenant, String requestId, String route, String moduleId) {}

  /** Exports the spans still buffered and stops the SDK (off the event loop). */
  public Future<Void> close(Vertx vertx) {
    if (openTelemetry == null) {
      return Future.succeededFuture();
    }
    return vertx.executeBlocking(
        () -> {
          Telemetry.shutdown(openTelemetry);
          return null;
        },
        false);
  }
}
