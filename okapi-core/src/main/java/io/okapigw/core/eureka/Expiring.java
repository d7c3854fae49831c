package io.okapigw.core.eureka;

import com.github.benmanes.caffeine.cache.Ticker;
import io.vertx.core.Future;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Values loaded once and shared until they expire (tokens, client secrets): concurrent callers
 * share one load, a failed load is not kept.
 *
 * @param <V> the value
 */
final class Expiring<V> {

  /** A loaded value and the ticker time it stops being used. */
  record Held<V>(V value, long until) {}

  private final Ticker ticker;
  private final Map<String, Future<Held<V>>> held = new ConcurrentHashMap<>();

  Expiring(Ticker ticker) {
    this.ticker = ticker;
  }

  /**
   * @param load loads the value and says until when (ticker time) it may be used
   */
  Future<V> get(String key, Function<String, Future<Held<V>>> load) {
    Future<Held<V>> now =
        held.compute(
            key,
            (k, h) ->
                h == null || h.failed() || h.succeeded() && expired(h.result())
                    ? load.apply(k)
                    : h);
    return now.map(Held::value);
  }

  /** Forgets the value held under {@code key} (a token Keycloak no longer takes). */
  void forget(String key) {
    held.remove(key);
  }

  long now() {
    return ticker.read();
  }

  private boolean expired(Held<V> h) {
    return ticker.read() - h.until() >= 0;
  }
}
