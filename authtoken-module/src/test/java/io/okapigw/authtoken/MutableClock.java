package io.okapigw.authtoken;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock tests move by hand, so expiry is tested without sleeping. */
public final class MutableClock extends Clock {
  private final AtomicReference<Instant> now;

  /**
   * @param start the initial time
   */
  public MutableClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  /**
   * @return a clock at the current system time, truncated to seconds
   */
  public static MutableClock ofNow() {
    return new MutableClock(Instant.ofEpochSecond(Instant.now().getEpochSecond()));
  }

  /**
   * @param duration how far to move forward
   */
  public void advance(Duration duration) {
    now.updateAndGet(t -> t.plus(duration));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
