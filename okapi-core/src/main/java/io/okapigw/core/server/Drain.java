package io.okapigw.core.server;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Context;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Whether the node is draining, shared by its listeners, its proxy and its health answers: once
 * {@link #begin} is called readiness is false, every answer not yet started carries {@code
 * Connection: close} and its connection is closed after it; once {@link #refuseClients} is called
 * (after the readiness delay) the proxy refuses every request but the call backs of requests in
 * flight ({@link #refusal}), and the HTTP verticles, when undeployed, give what is still in flight
 * the rest of {@link DrainOptions#drainTimeout()}. Thread-safe.
 */
public final class Drain {

  private final DrainOptions options;
  private final List<Runnable> onBegin = new CopyOnWriteArrayList<>();
  private volatile boolean draining;
  private volatile boolean refusing;
  private volatile long closeBy;

  /**
   * @param options the {@code shutdown.*} settings
   */
  public Drain(DrainOptions options) {
    this.options = options;
  }

  /**
   * @return the {@code shutdown.*} settings
   */
  public DrainOptions options() {
    return options;
  }

  /**
   * @return whether the node is draining (readiness false)
   */
  public boolean draining() {
    return draining;
  }

  /** Starts the drain: readiness false, answers with {@code Connection: close}; once only. */
  public synchronized void begin() {
    if (!draining) {
      draining = true;
      onBegin.forEach(Runnable::run);
    }
  }

  /**
   * The readiness delay is over: from now on new client requests are refused (a module's call back
   * of a request in flight is served), and the requests in flight get {@link
   * DrainOptions#drainTimeout()} from now. Once only.
   */
  public synchronized void refuseClients() {
    if (!refusing) {
      closeBy = System.nanoTime() + options.drainTimeout().toNanos();
      refusing = true;
    }
  }

  /**
   * @return whether new client requests are refused ({@link #refusal})
   */
  public boolean refusesClients() {
    return refusing;
  }

  /**
   * @return the answer to a client's request while {@link #refusesClients}: 503, and (as every
   *     answer of a draining node) {@code Connection: close}
   */
  public static HttpError refusal() {
    return HttpError.unavailable(
        "draining: this node is shutting down and takes no new requests; send them to another"
            + " node");
  }

  /**
   * @return how much of the drain timeout is left for what is still in flight; 0 before {@link
   *     #refuseClients} and once it has passed
   */
  long millisLeft() {
    if (!refusing) {
      return 0;
    }
    return Math.max(0, TimeUnit.NANOSECONDS.toMillis(closeBy - System.nanoTime()));
  }

  /** Runs {@code action} on {@code context} when the drain begins (at once if it has). */
  void onBegin(Context context, Runnable action) {
    Runnable onContext = () -> context.runOnContext(v -> action.run());
    synchronized (this) {
      if (!draining) {
        onBegin.add(onContext);
        return;
      }
    }
    onContext.run();
  }
}
