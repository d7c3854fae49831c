package io.okapigw.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A wall clock that reads a base clock once and then advances with a ticker, so that one time
 * source drives both expiry and token exp checks.
 */
final class TickerClock extends Clock {

  private final Ticker ticker;
  private final Instant origin;
  private final long originNanos;
  private final ZoneId zone;

  TickerClock(Ticker ticker, Clock base) {
    this(Objects.requireNonNull(ticker, "ticker"), base.instant(), ticker.read(), ZoneOffset.UTC);
  }

  private TickerClock(Ticker ticker, Instant origin, long originNanos, ZoneId zone) {
    this.ticker = ticker;
    this.origin = origin;
    this.originNanos = originNanos;
    this.zone = zone;
  }

  @Override
  public Instant instant() {
    return origin.plusNanos(ticker.read() - originNanos);
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  @Override
  public Clock withZone(ZoneId newZone) {
    return new TickerClock(ticker, origin, originNanos, newZone);
  }
}
