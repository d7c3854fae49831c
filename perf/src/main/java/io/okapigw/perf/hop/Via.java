package io.okapigw.perf.hop;

/** The ways a request reaches the module, measured in this order in every round. */
enum Via {
  /** wrk straight to the module: what the module and wrk cost without a proxy. */
  DIRECT("direct"),
  /** Through nginx. */
  NGINX("nginx"),
  /** Through {@link NettyRelay}, a floor: what a bare JVM relay on Netty costs (not by default). */
  NETTY_RELAY("netty-relay"),
  /** Through {@link VertxRelay}, a floor: what a bare Vert.x relay costs (not by default). */
  VERTX_RELAY("vertx-relay"),
  /** Through our gateway, for a tenant without an auth filter. */
  OURS("ours"),
  /** Through our gateway, for a tenant with the authtoken filter, one token: a cache hit. */
  OURS_AUTH("ours+auth"),
  /** Through the gateway given with {@code --vs}. */
  VS("vs");

  private final String label;

  Via(String label) {
    this.label = label;
  }

  String label() {
    return label;
  }

  /**
   * @return whether a run measures this way unless {@code --via} says otherwise
   */
  boolean byDefault() {
    return this != VS && this != NETTY_RELAY && this != VERTX_RELAY;
  }

  /**
   * @return whether a proxy stands between wrk and the module
   */
  boolean proxied() {
    return this != DIRECT;
  }
}
