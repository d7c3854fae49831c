package io.okapigw.core.bulkhead;

import io.okapigw.core.http.HttpError;

/** A request refused past its tenant's bulkhead limit: 429 with {@code Retry-After}. */
public final class TooBusy extends HttpError {

  private static final long serialVersionUID = 1L;

  private final long retryAfterSeconds;

  private TooBusy(String message, long retryAfterSeconds) {
    super(429, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  static TooBusy inFlight(String tenant, int limit) {
    return new TooBusy(
        "tenant "
            + tenant
            + " has "
            + limit
            + " requests in flight, its limit on this node (bulkhead.max-in-flight); retry later",
        1);
  }

  static TooBusy rate(String tenant, int rate, long retryAfterSeconds) {
    return new TooBusy(
        "tenant "
            + tenant
            + " is past its "
            + rate
            + " requests a second, its limit on this node (bulkhead.rate); retry in "
            + retryAfterSeconds
            + " s",
        retryAfterSeconds);
  }

  /**
   * @return the {@code Retry-After} the client is sent, in seconds
   */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
