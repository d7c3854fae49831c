package io.okapigw.core.proxy;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The node's room for bodies read whole ({@link BufferOptions#maxTotal}): each request reading one
 * takes a {@link Claim}, which takes room as the body needs it and gives it all back once. Counted
 * in bytes of body, not time. Thread-safe (requests of every event loop share it).
 */
final class BodyBudget {

  private final BufferOptions options;
  private final AtomicLong used = new AtomicLong();

  BodyBudget(BufferOptions options, MeterRegistry registry) {
    this.options = options;
    Gauge.builder("okapi.buffered.body.bytes", used, AtomicLong::get)
        .description("Bytes of request bodies read whole held now (proxy.buffered-max-total)")
        .baseUnit("bytes")
        .register(registry);
  }

  /**
   * @return the limits
   */
  BufferOptions options() {
    return options;
  }

  /**
   * @return the bytes taken now
   */
  long used() {
    return used.get();
  }

  /**
   * @return a claim holding no room yet
   */
  Claim claim() {
    return new Claim();
  }

  private boolean take(long bytes) {
    while (true) {
      long now = used.get();
      if (now + bytes > options.maxTotal()) {
        return false;
      }
      if (used.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  /** One request's room; thread-safe ({@link #release} may come from another thread). */
  final class Claim {
    private long held;
    private boolean released;

    /**
     * @return whether {@code total} bytes fit: taken (what this claim holds counts), else none
     */
    synchronized boolean growTo(long total) {
      long more = total - held;
      if (more <= 0) {
        return true;
      }
      if (released || !take(more)) {
        return false;
      }
      held += more;
      return true;
    }

    /** Gives the room back: once, whenever it is called again. */
    synchronized void release() {
      released = true;
      used.addAndGet(-held);
      held = 0;
    }
  }
}
