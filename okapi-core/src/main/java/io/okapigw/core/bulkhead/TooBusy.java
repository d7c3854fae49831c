package io.okapigw.core.bulkhead;

import io.okapigw.core.http.HttpError;

/** A request refused past its tenant's bulkhead limit: 429 with {@code Retry-After}. */
public final class TooBusy extends HttpError {

  private static final long serialVersionUID = 1L;

  private TooBusy(String message, long retryAfterSeconds) {
    super(429, message, retryAfterSeconds);
  }

  static TooBusy inFlight(String tenant, int limit, boolean ofAnonymous) {
    return new TooBusy(
        (ofAnonymous ? anonymous(tenant) + " have " : "tenant " + tenant + " has ")
            + limit
            + " requests in flight, "
            + (ofAnonymous
                ? "their share of its limit on this node (bulkhead.anonymous-share of"
                    + " bulkhead.max-in-flight)"
                : "its limit on this node (bulkhead.max-in-flight)")
            + "; retry later",
        1);
  }

  static TooBusy rate(String tenant, int rate, long retryAfterSeconds, boolean ofAnonymous) {
    return new TooBusy(
        (ofAnonymous ? anonymous(tenant) + " are" : "tenant " + tenant + " is")
            + " past "
            + (ofAnonymous ? "their " : "its ")
            + rate
            + " requests a second, "
            + (ofAnonymous
                ? "their share of its limit on this node (bulkhead.anonymous-share of"
                    + " bulkhead.rate)"
                : "its limit on this node (bulkhead.rate)")
            + "; retry in "
            + retryAfterSeconds
            + " s",
        retryAfterSeconds);
  }

  private static String anonymous(String tenant) {
    return "the anonymous requests of tenant " + tenant + " (granted to no user)";
  }
}
