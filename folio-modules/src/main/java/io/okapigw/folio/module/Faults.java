package io.okapigw.folio.module;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Failures a module is told to simulate, per handler, until cleared: answer with an error status,
 * or never answer. For failure-propagation tests and demos.
 */
public final class Faults {

  /**
   * A simulated failure.
   *
   * @param status the status to answer with, or 0 to never answer
   */
  public record Fault(int status) {

    /**
     * @return whether the request is left without an answer
     */
    public boolean hangs() {
      return status == 0;
    }
  }

  private final Map<String, Fault> faults = new ConcurrentHashMap<>();

  /**
   * Makes the handler answer every request with {@code status}.
   *
   * @throws IllegalArgumentException unless status is 400..599
   */
  public Faults respond(String method, String pathPattern, int status) {
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException("fault status must be 400..599, was " + status);
    }
    faults.put(Routes.key(method, pathPattern), new Fault(status));
    return this;
  }

  /** Makes the handler never answer. */
  public Faults hang(String method, String pathPattern) {
    faults.put(Routes.key(method, pathPattern), new Fault(0));
    return this;
  }

  /** Removes every fault. */
  public void clear() {
    faults.clear();
  }

  Optional<Fault> find(String key) {
    return faults.isEmpty() ? Optional.empty() : Optional.ofNullable(faults.get(key));
  }
}
