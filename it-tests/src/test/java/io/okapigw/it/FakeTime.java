package io.okapigw.it;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** One knob for both time sources: the gateway cache's ticker and the auth module's clock. */
final class FakeTime implements Ticker {

  private final Instant start = Instant.now();
  private final AtomicLong elapsedNanos = new AtomicLong();

  @Override
  public long read() {
    return elapsedNanos.get();
  }

  void advance(Duration d) {
    elapsedNanos.addAndGet(d.toNanos());
  }

  Clock clock() {
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return start.plusNanos(elapsedNanos.get());
      }
    };
  }
}
