package io.okapigw.core.server;

import io.vertx.core.Context;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Whether the node is draining, shared by its listeners and its health answers: once {@link #begin}
 * is called readiness is false, every answer not yet started carries {@code Connection: close} and
 * its connection is closed after it, and the HTTP verticles, when undeployed, give the requests in
 * flight up to {@link DrainOptions#drainTimeout()} to finish. Thread-safe.
 */
public final class Drain {

  private final DrainOptions options;
  private final List<Runnable> onBegin = new CopyOnWriteArrayList<>();
  private volatile boolean draining;

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
