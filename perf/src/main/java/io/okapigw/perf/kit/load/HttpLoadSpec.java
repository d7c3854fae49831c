package io.okapigw.perf.kit.load;

import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.function.IntFunction;

/**
 * What an {@link HttpLoad} runs: {@code clients} connections, each sending its requests one after
 * the other, {@code requests} in all, stopped at {@code timeLimit} whatever is left.
 *
 * @param clients concurrent clients (at most {@code requests} are used)
 * @param requests requests in all
 * @param timeLimit hard limit: requests in flight then are cut and the run marked so
 * @param request the request with index {@code i} (0 to {@code requests - 1}); absolute URI
 * @param expectedBytes body length every answer must have, or -1 for any
 */
public record HttpLoadSpec(
    int clients,
    int requests,
    Duration timeLimit,
    IntFunction<RequestOptions> request,
    long expectedBytes) {

  public HttpLoadSpec {
    if (clients < 1 || requests < 1) {
      throw new IllegalArgumentException("clients and requests must be >= 1");
    }
    if (timeLimit.isZero() || timeLimit.isNegative()) {
      throw new IllegalArgumentException("timeLimit must be > 0");
    }
  }

  /**
   * @return the number of clients actually used
   */
  public int activeClients() {
    return Math.min(clients, requests);
  }
}
