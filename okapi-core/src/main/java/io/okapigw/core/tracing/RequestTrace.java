package io.okapigw.core.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What is observed of one client request while it runs: its server span (when tracing is on), the
 * auth stage's outcome, the time spent waiting for modules and, with trace headers on, the {@code
 * X-Okapi-Trace} lines of its module calls. Kept in the request's own Vert.x context (each request
 * runs on a duplicate of its event loop's context), so that the module calls the request makes find
 * their parent span and the auth stage can say how it decided, without being handed anything.
 */
public final class RequestTrace {

  private static final Object KEY = RequestTrace.class;

  /** Okapi's answer header naming each module call of a request. */
  static final String TRACE_HEADER = "X-Okapi-Trace";

  private final long startNanos = System.nanoTime();
  private final long startMillis = System.currentTimeMillis();
  private final Span span;
  private final Context context;
  private AuthOutcome authOutcome;
  private String requestId;
  private String tenant;
  private long upstreamNanos;
  private List<String> traceLines;
  private String internalCall;
  private long internalStartNanos;

  RequestTrace(Span span, Context context) {
    this.span = span;
    this.context = context;
  }

  /**
   * @return the trace of the request running on the calling thread's Vert.x context, or null (none
   *     observed, or not on a request's context)
   */
  public static RequestTrace current() {
    if (!(Vertx.currentContext() instanceof ContextInternal context)) {
      return null;
    }
    Map<Object, Object> data = context.getLocal(ContextInternal.LOCAL_MAP);
    return data == null ? null : (RequestTrace) data.get(KEY);
  }

  /**
   * Attaches this trace to the request's context; a context shared by several requests (not a
   * duplicate) gets none.
   *
   * @return whether attached
   */
  boolean attach() {
    if (Vertx.currentContext() instanceof ContextInternal context && context.isDuplicate()) {
      context.localContextData().put(KEY, this);
      return true;
    }
    return false;
  }

  /** Tells the trace how the auth stage decided; the first word stands (a denial overrides). */
  public void authOutcome(AuthOutcome outcome) {
    if (authOutcome == null || outcome == AuthOutcome.DENIED) {
      authOutcome = outcome;
    }
  }

  /**
   * Tells the trace the request is routed: the tenant it is for and the {@code X-Okapi-Request-Id}
   * its module calls are sent with. A module calling back for that tenant with that id, but without
   * {@code traceparent}, joins this trace ({@link Callers}).
   */
  public void routed(String id, String forTenant) {
    requestId = id;
    tenant = forTenant;
  }

  /**
   * @return the request id the module calls are sent with, or null before the request is routed
   */
  String requestId() {
    return requestId;
  }

  /**
   * @return the tenant the request is for, or null before the request is routed
   */
  String tenant() {
    return tenant;
  }

  void addUpstream(long nanos) {
    upstreamNanos += nanos;
  }

  /**
   * @return {@code uri} as Okapi shows it in {@code X-Okapi-Trace}: its query (and a fragment) as
   *     {@code ..}
   */
  static String tracePath(String uri) {
    return uri.replaceFirst("[?#].*$", "..");
  }

  /** An {@code X-Okapi-Trace} line of a module call, answered (with trace headers on). */
  void traceLine(String line) {
    if (traceLines == null) {
      traceLines = new ArrayList<>(4);
    }
    traceLines.add(line);
  }

  /**
   * The gateway's own module serves the request from now on: its line ({@code GET okapi-7.0.7
   * /_/proxy/tenants : 200 543us}) is written with the answer's status, unless that is an error
   * (Okapi writes none then).
   *
   * @param call method, module and path of that line
   */
  void internalCall(String call) {
    internalCall = call;
    internalStartNanos = System.nanoTime();
  }

  /** Writes the {@code X-Okapi-Trace} lines, in the order the calls were answered. */
  void writeTraceHeaders(HttpServerResponse response) {
    if (traceLines != null) {
      for (String line : traceLines) {
        response.headers().add(TRACE_HEADER, line);
      }
    }
    // as Okapi: the gateway's own module has a line when it answered, not when it refused
    if (internalCall != null && response.getStatusCode() < 400) {
      response
          .headers()
          .add(
              TRACE_HEADER,
              internalCall
                  + " : "
                  + response.getStatusCode()
                  + " "
                  + (System.nanoTime() - internalStartNanos) / 1000
                  + "us");
    }
  }

  AuthOutcome authOutcome() {
    return authOutcome;
  }

  long upstreamNanos() {
    return upstreamNanos;
  }

  long startNanos() {
    return startNanos;
  }

  long startMillis() {
    return startMillis;
  }

  /**
   * @return the server span, invalid when tracing is off
   */
  Span span() {
    return span;
  }

  /**
   * @return the OpenTelemetry context module calls are children of
   */
  Context context() {
    return context;
  }
}
