package io.okapigw.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

/** The two clocks of the cache: a monotonic ticker for expiry, a wall clock for token exp. */
final class TimeSource {

  private final Ticker ticker;
  private final Clock clock;

  TimeSource(Ticker ticker, Clock clock) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  Ticker ticker() {
    return ticker;
  }

  long nanoTime() {
    return ticker.read();
  }

  long epochMillis() {
    return clock.millis();
  }

  Instant instant() {
    return clock.instant();
  }
}
