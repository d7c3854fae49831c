package io.okapigw.core.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The module calls this node has in flight, by the tenant they are made for and the {@code
 * X-Okapi-Request-Id} each was sent with. A module that calls back through the gateway without
 * passing {@code traceparent} on (FOLIO's clients pass on {@code X-Okapi-*} headers only:
 * okapi-common's {@code OkapiClient}, mod-circulation's) still sends that request id back,
 * unchanged, for the tenant of the call it serves, as Okapi's protocol asks; its request then joins
 * the trace as a child of the call it serves, as if it had passed {@code traceparent} on. A request
 * of another tenant never does, whatever id it sends: a client of one tenant that learns or guesses
 * an id in flight cannot put its requests into another tenant's traces.
 *
 * <p>Request ids are six random digits per hop, so two requests in flight may share one: an id sent
 * by calls of two different traces links to neither (a root span, as without this). Only the calls
 * of this node are known: a module whose {@code X-Okapi-Url} leads to another node of a cluster
 * starts a trace of its own there (its spans carry {@code okapi.request_id}, whose chain names the
 * caller's).
 */
final class Callers {

  /** What calls are known by: the tenant they are made for and the request id they carry. */
  private record Key(String tenant, String requestId) {}

  /** Calls sent with one request id: the last one's context, or null once two traces shared it. */
  private static final class Sent {
    private volatile Context context;
    private int calls;
  }

  private final Map<Key, Sent> byRequestId = new ConcurrentHashMap<>();

  /** A call made for {@code tenant} is sent with {@code requestId}, its span in {@code context}. */
  void sent(String tenant, String requestId, Context context) {
    byRequestId.compute(
        new Key(tenant, requestId),
        (key, sent) -> {
          Sent s = sent == null ? new Sent() : sent;
          s.context = sent == null || sameTrace(sent.context, context) ? context : null;
          s.calls++;
          return s;
        });
  }

  /** A call {@link #sent} is answered or failed. */
  void ended(String tenant, String requestId) {
    byRequestId.computeIfPresent(
        new Key(tenant, requestId), (key, sent) -> --sent.calls == 0 ? null : sent);
  }

  /**
   * @param tenant the tenant the request naming {@code requestId} is for
   * @return the context of the call in flight for {@code tenant} that was sent with {@code
   *     requestId}, a module's call back carrying it; null if none is (or calls of two traces are)
   */
  Context caller(String tenant, String requestId) {
    Sent sent = byRequestId.get(new Key(tenant, requestId));
    return sent == null ? null : sent.context;
  }

  /**
   * @return how many request ids have calls in flight
   */
  int size() {
    return byRequestId.size();
  }

  private static boolean sameTrace(Context a, Context b) {
    return a != null
        && Span.fromContext(a)
            .getSpanContext()
            .getTraceId()
            .equals(Span.fromContext(b).getSpanContext().getTraceId());
  }
}
