package io.okapigw.core.callback;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.okapigw.core.http.RequestIds;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The calls this node has in flight, and which requests are their call backs: the one notion of "a
 * module calls back through the gateway while it serves call C of tenant T" that whatever treats
 * call backs apart (the bulkhead, which never refuses them; tracing, which links them to their
 * call; a draining node, which still serves them) asks.
 *
 * <p>Each request the gateway proxies is a {@link Call}, open from routing until it is answered,
 * with a key of its own: a handle and a secret of 144 random bits ({@link SecureRandom}), sent to
 * every module of its pipeline in its {@code X-Okapi-Request-Id} ({@link RequestIds}), the one
 * header every FOLIO module passes on when it calls another (okapi-common's {@code OkapiClient},
 * mod-circulation's and RMB's clients alike). A request is a call back of call C when its {@code
 * X-Okapi-Request-Id} holds C's key (also where a module chained an element of its own after it)
 * and names C's tenant; the secret is compared in constant time. A client never sees the ids sent
 * to modules, and the secret is only good while its call is in flight. Thread-safe: a call costs 24
 * random bytes and one map entry while it is in flight; {@code okapi_calls_in_flight} in {@code
 * /_/metrics} counts them (a scrape through the gateway counts itself).
 */
public final class CallBacks implements MeterBinder {

  private static final Base64.Encoder KEYS = Base64.getUrlEncoder().withoutPadding();
  private static final int KEY_BYTES = RequestIds.KEY_LENGTH * 3 / 4;

  private final SecureRandom random;
  private final Map<String, Call> byHandle = new ConcurrentHashMap<>();
  private final List<Runnable> whenIdle = new CopyOnWriteArrayList<>();

  private CallBacks(SecureRandom random) {
    this.random = random;
  }

  /**
   * @return the calls of a node
   */
  public static CallBacks create() {
    return new CallBacks(new SecureRandom());
  }

  /**
   * Opens a call: a request of {@code tenant} routed, to be sent to its modules.
   *
   * @param tenant the request's tenant
   * @param incomingId the request's {@code X-Okapi-Request-Id} as it came, or null
   * @param path the request's path (its first segment goes into the id, as Okapi's)
   * @return the call, in flight until {@link Call#close closed}
   */
  public Call open(String tenant, String incomingId, String path) {
    return open(tenant, incomingId, path, null);
  }

  /**
   * As {@link #open(String, String, String)}, naming the module whose call backs the call's are.
   *
   * @param module the module the call is sent to and that calls back with its key (its handler's,
   *     where no filter gets the key too), or null if that cannot be told
   */
  public Call open(String tenant, String incomingId, String path, String module) {
    byte[] bytes = new byte[KEY_BYTES];
    while (true) {
      random.nextBytes(bytes);
      String key = KEYS.encodeToString(bytes);
      String handle = key.substring(0, RequestIds.HANDLE_LENGTH);
      Call call =
          new Call(this, tenant, module, handle, key, RequestIds.next(incomingId, path, key));
      if (byHandle.putIfAbsent(handle, call) == null) {
        return call;
      }
    }
  }

  /**
   * @param tenant the tenant a request is for
   * @param incomingId its {@code X-Okapi-Request-Id}, or null
   * @return the call in flight on this node that the request calls back from: the one whose key is
   *     nearest the end of {@code incomingId} and whose tenant is {@code tenant}; empty for a
   *     client's request (whatever id it sends) and for a call back of another tenant's call
   */
  public Optional<Call> callerOf(String tenant, String incomingId) {
    for (String key : RequestIds.keys(incomingId)) {
      Call call = byHandle.get(key.substring(0, RequestIds.HANDLE_LENGTH));
      if (call != null && call.isCalledBackBy(tenant, key)) {
        return Optional.of(call);
      }
    }
    return Optional.empty();
  }

  /**
   * @return how many calls are in flight
   */
  public int inFlight() {
    return byHandle.size();
  }

  /** Registers {@code okapi_calls_in_flight}. */
  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("okapi.calls.in.flight", this, CallBacks::inFlight)
        .description("Requests this node proxies, from routing until answered")
        .register(registry);
  }

  /**
   * Runs {@code action} once no call is in flight: at once if none is, else when the last one in
   * flight closes (on its thread). A draining node closes its listeners then: no call is left to
   * call back.
   */
  public void whenIdle(Runnable action) {
    AtomicBoolean ran = new AtomicBoolean();
    Runnable once =
        () -> {
          if (ran.compareAndSet(false, true)) {
            action.run();
          }
        };
    whenIdle.add(once);
    if (byHandle.isEmpty()) {
      idle();
    }
  }

  void closed(Call call) {
    if (byHandle.remove(call.handle(), call) && !whenIdle.isEmpty() && byHandle.isEmpty()) {
      idle();
    }
  }

  private void idle() {
    for (Runnable waiting : whenIdle) {
      whenIdle.remove(waiting);
      waiting.run();
    }
  }
}
