package io.okapigw.core.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.LongAdder;

/**
 * The node's client connections, on every listener of every event loop: {@code
 * okapi_client_connections} open now, {@code okapi_client_connections_closed_total} closed so far,
 * {@code okapi_client_connections_refused_total{listener}} closed at once past their listener's
 * {@link ConnectionLimit}. A close is counted once the event loop has handled it (what the request
 * in progress did on it included). Thread-safe.
 */
public final class ConnectionMetrics {

  private final MeterRegistry registry;
  private final LongAdder open = new LongAdder();
  private final Counter closed;

  public ConnectionMetrics(MeterRegistry registry) {
    this.registry = registry;
    Gauge.builder("okapi.client.connections", open, LongAdder::sum)
        .description("Client connections open now, on every listener of the node")
        .register(registry);
    this.closed =
        Counter.builder("okapi.client.connections.closed")
            .description("Client connections closed, by either side, on every listener of the node")
            .register(registry);
  }

  /**
   * @param listener the listener's name in the figures: {@code public}, {@code admin}, {@code
   *     health}
   * @param max how many connections it keeps open at once
   * @return the listener's limit, shared by the servers of its event loops
   */
  public ConnectionLimit limit(String listener, int max) {
    return new ConnectionLimit(
        max,
        Counter.builder("okapi.client.connections.refused")
            .description(
                "Client connections closed at once, past their listener's limit"
                    + " (server.*max-connections)")
            .tag("listener", listener)
            .register(registry));
  }

  void opened() {
    open.increment();
  }

  void closed() {
    open.decrement();
    closed.increment();
  }
}
