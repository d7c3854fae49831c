package io.okapigw.core.tracing;

import java.util.Locale;

/** How the auth stage decided on a request: the {@code okapi.auth.outcome} of its server span. */
public enum AuthOutcome {
  /** The decision came from the cache: no auth call. */
  HIT,
  /** This request called the auth filter (a cache miss, or the cache is off). */
  MISS,
  /** Another request's auth call in flight decided for this one too. */
  COALESCED,
  /** The auth module failed; a decision past its TTL was served (stale-if-error). */
  STALE,
  /** The auth filter refused the request (401, 403). */
  DENIED;

  /**
   * @return the outcome as written in spans and the access log: {@code hit}, {@code miss}, ...
   */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
