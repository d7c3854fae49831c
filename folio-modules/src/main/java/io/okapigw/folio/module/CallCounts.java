package io.okapigw.folio.module;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Thread-safe counters of calls by handler key ({@code "GET /users/{id}"}). A module keeps one for
 * the requests it served and one for the calls it made to other modules.
 */
public final class CallCounts {

  private final Map<String, LongAdder> byKey = new ConcurrentHashMap<>();
  private final LongAdder total = new LongAdder();
  private final LongAdder moduleToModule = new LongAdder();

  /**
   * @param key the handler key
   * @param fromModule whether the call was module-to-module (its X-Okapi-Request-Id was chained by
   *     the gateway: {@code a;b})
   */
  public void record(String key, boolean fromModule) {
    byKey.computeIfAbsent(key, k -> new LongAdder()).increment();
    total.increment();
    if (fromModule) {
      moduleToModule.increment();
    }
  }

  /**
   * @return calls counted under {@code key}
   */
  public long count(String key) {
    LongAdder adder = byKey.get(key);
    return adder == null ? 0 : adder.sum();
  }

  /**
   * @return all calls
   */
  public long total() {
    return total.sum();
  }

  /**
   * @return the calls that came from another module through the gateway
   */
  public long moduleToModule() {
    return moduleToModule.sum();
  }

  /**
   * @return a sorted copy of the counts by key
   */
  public Map<String, Long> snapshot() {
    Map<String, Long> copy = new TreeMap<>();
    byKey.forEach((key, adder) -> copy.put(key, adder.sum()));
    return copy;
  }
}
