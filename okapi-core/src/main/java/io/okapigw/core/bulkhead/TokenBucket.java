package io.okapigw.core.bulkhead;

/**
 * A token bucket: {@code rate} tokens a second, holding at most one second's worth (a burst of
 * {@code rate} requests after a quiet second), on the time given by the caller.
 */
final class TokenBucket {

  private static final double NANOS = 1e9;

  private final double capacity;
  private final double perNano;
  private double tokens;
  private long last;

  TokenBucket(int rate, long now) {
    this.capacity = rate;
    this.perNano = rate / NANOS;
    this.tokens = rate;
    this.last = now;
  }

  /**
   * Takes a token.
   *
   * @param now the time, in nanoseconds
   * @return 0 if a token was taken, else how many nanoseconds until one is there
   */
  synchronized long take(long now) {
    if (now > last) {
      tokens = Math.min(capacity, tokens + (now - last) * perNano);
      last = now;
    }
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.max(1, (long) Math.ceil((1 - tokens) / perNano));
  }
}
