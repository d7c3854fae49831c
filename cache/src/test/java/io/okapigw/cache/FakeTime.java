package io.okapigw.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker and a wall clock that only move when a test advances them, together. */
final class FakeTime implements Ticker {

  static final Instant START = Instant.parse("2025-06-01T00:00:00Z");

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final long origin = nanos.get();

  @Override
  public long read() {
    return nanos.get();
  }

  Instant now() {
    return START.plusNanos(nanos.get() - origin);
  }

  void advance(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }

  Clock clock() {
    return new Clock() {
      @Override
      public Instant instant() {
        return now();
      }

      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
      }
    };
  }
}
