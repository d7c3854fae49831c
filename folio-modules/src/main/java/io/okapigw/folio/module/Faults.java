package io.okapigw.folio.module;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Failures a module is told to simulate, per handler, until cleared: answer with an error status,
 * never answer, or answer late (held until the test lets go). For failure-propagation tests and
 * demos.
 */
public final class Faults {

  /**
   * A simulated failure.
   *
   * @param status the status to answer with, or 0 to never answer (or to answer once released)
   * @param release when a held request is served as usual; null for a fault that does not hold
   */
  public record Fault(int status, Future<?> release) {

    /**
     * @return whether the request is left without an answer
     */
    public boolean hangs() {
      return status == 0 && release == null;
    }

    /**
     * @return whether the request is served as usual once {@link #release} completes
     */
    public boolean holds() {
      return release != null;
    }
  }

  private final Map<String, Fault> faults = new ConcurrentHashMap<>();
  private volatile Duration latency = Duration.ZERO;

  /**
   * Makes the handler answer every request with {@code status}.
   *
   * @throws IllegalArgumentException unless status is 400..599
   */
  public Faults respond(String method, String pathPattern, int status) {
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException("fault status must be 400..599, was " + status);
    }
    faults.put(Routes.key(method, pathPattern), new Fault(status, null));
    return this;
  }

  /** Makes the handler never answer. */
  public Faults hang(String method, String pathPattern) {
    faults.put(Routes.key(method, pathPattern), new Fault(0, null));
    return this;
  }

  /**
   * Holds the handler's requests until {@code release} completes (or fails), then serves them as
   * usual: requests in flight for as long as a test needs.
   */
  public Faults holdUntil(String method, String pathPattern, Future<?> release) {
    faults.put(Routes.key(method, pathPattern), new Fault(0, release));
    return this;
  }

  /**
   * Makes every handler answer {@code delay} late (a slow instance); zero for none. Kept by {@link
   * #clear}.
   */
  public Faults slowBy(Duration delay) {
    latency = delay;
    return this;
  }

  /**
   * @return how late every answer is ({@link #slowBy})
   */
  Duration latency() {
    return latency;
  }

  /** Removes every fault of a handler. */
  public void clear() {
    faults.clear();
  }

  Optional<Fault> find(String key) {
    return faults.isEmpty() ? Optional.empty() : Optional.ofNullable(faults.get(key));
  }
}
