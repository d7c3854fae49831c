package io.okapigw.core.tracing;

import io.opentelemetry.context.Context;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The module calls this node has in flight, by the tenant they are made for and the {@code
 * X-Okapi-Request-Id} each was sent with (one per client request, its call key in it: the auth,
 * filter and handler calls of a request share it). A module that calls back through the gateway
 * without passing {@code traceparent} on (FOLIO's clients pass on {@code X-Okapi-*} headers only:
 * okapi-common's {@code OkapiClient}, mod-circulation's) still sends that request id back, as
 * Okapi's protocol asks; once {@link io.okapigw.core.callback.CallBacks} recognises it as a call
 * back of a call, its request joins the trace as a child of that call's latest module call, as if
 * it had passed {@code traceparent} on.
 *
 * <p>Only the calls of this node are known: a module whose {@code X-Okapi-Url} leads to another
 * node of a cluster starts a trace of its own there (its spans carry {@code okapi.request_id},
 * whose chain names the caller's).
 */
final class Callers {

  /** What calls are known by: the tenant they are made for and the request id they carry. */
  private record Key(String tenant, String requestId) {}

  /** The module calls sent with one request id: the latest one's context, and how many are open. */
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
          s.context = context;
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
   * @return the context of the latest module call in flight for {@code tenant} that was sent with
   *     {@code requestId}; null if none is
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
}
