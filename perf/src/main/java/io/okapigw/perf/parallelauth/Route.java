package io.okapigw.perf.parallelauth;

/** The five measured routes of {@code parallel-auth}, in run order. */
public enum Route {
  /** client -> fixed module (the handler with its delay), no gateway. */
  HANDLER("handler alone (direct)"),
  /** client -> authtoken module's auth filter, a new token each time, no gateway. */
  AUTH("auth filter alone (direct)"),
  /** client -> gateway auth.parallel=off -> auth, then handler; a new token each time. */
  SEQUENTIAL("gateway, sequential auth, miss"),
  /** client -> gateway auth.parallel=safe -> auth and handler at once; a new token each time. */
  PARALLEL("gateway, parallel auth, miss"),
  /** client -> gateway auth.parallel=safe -> handler; one token (auth cache hit). */
  HIT("gateway, cache hit");

  private final String label;

  Route(String label) {
    this.label = label;
  }

  /**
   * @return how the table names it
   */
  public String label() {
    return label;
  }

  /**
   * @return whether every request of the route carries a token used nowhere else
   */
  public boolean uniqueTokens() {
    return this == AUTH || this == SEQUENTIAL || this == PARALLEL;
  }
}
