package io.okapigw.cache;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of an {@link AuthCache}: on/off, time to live, bounds in entries and in bytes, negative
 * caching and stale-if-error. Defaults live in the {@code DEFAULT_*} constants, each setting (key,
 * accepted values, default, meaning) in one {@link Setting} constant, by which every setter
 * validates its value and fails fast with an {@link IllegalArgumentException} naming the setting,
 * e.g. {@code auth.cache.ttl must be between 1ms and 365d, was '0'}.
 *
 * <p>The gateway reads them from flags or {@code -conf} JSON with {@link #from(Settings)}, by the
 * rules of {@link Settings}: durations with a unit ({@code 180s}), booleans true/false, yes/no,
 * on/off. Instances are mutable and not thread-safe; {@link AuthCache#create} takes a copy.
 */
public class AuthCacheOptions {

  /** Default of {@link #isEnabled()}: {@code true}. */
  public static final boolean DEFAULT_ENABLED = true;

  /** Default of {@link #getTtl()}: 180 seconds, as Okapi's TokenCache. */
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(180);

  /** Default of {@link #getMaxSize()}: 100,000 entries. */
  public static final int DEFAULT_MAX_SIZE = 100_000;

  /** Default of {@link #getMaxBytes()}: 64 MiB. */
  public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

  /** Default of {@link #getNegativeTtl()}: zero, denials are not cached. */
  public static final Duration DEFAULT_NEGATIVE_TTL = Duration.ZERO;

  /** Default of {@link #getStaleIfError()}: zero, nothing is served past its TTL. */
  public static final Duration DEFAULT_STALE_IF_ERROR = Duration.ZERO;

  /** Upper bound of every duration setting: 365 days. */
  public static final Duration MAX_DURATION = Duration.ofDays(365);

  /** Setting {@code auth.cache.enabled}: whether decisions are cached at all. */
  public static final Setting<Boolean> ENABLED =
      Setting.bool("auth.cache.enabled", DEFAULT_ENABLED).about("cache auth decisions");

  /**
   * Setting {@code auth.cache.ttl}: how long a granted decision is served from the cache; Okapi's
   * {@code token_cache_ttl_ms} (whole milliseconds) is its alias.
   */
  public static final Setting<Duration> TTL =
      Setting.duration("auth.cache.ttl", DEFAULT_TTL, Duration.ofMillis(1), MAX_DURATION)
          .alias("token_cache_ttl_ms", AuthCacheOptions::millis, "a whole number of milliseconds")
          .about("longest an entry lives (never past its token's `exp`)");

  /**
   * Setting {@code auth.cache.max-size}: the maximum number of cached decisions; Okapi's {@code
   * token_cache_max_size} is its alias.
   */
  public static final Setting<Integer> MAX_SIZE =
      Setting.integer("auth.cache.max-size", DEFAULT_MAX_SIZE, 1, Integer.MAX_VALUE)
          .alias("token_cache_max_size")
          .about("entries kept (W-TinyLFU eviction)");

  /**
   * Setting {@code auth.cache.max-bytes}: the most the cached decisions may weigh, estimated heap
   * bytes of their keys (tokens, user ids) and answers (module tokens, permissions).
   */
  public static final Setting<Long> MAX_BYTES =
      Setting.size("auth.cache.max-bytes", DEFAULT_MAX_BYTES, 64 * 1024, 64L * 1024 * 1024 * 1024)
          .about("heap the entries may hold, estimated (W-TinyLFU eviction)")
          .details(
              "Keys and answers are weighed by their strings: a FOLIO entry with its module tokens"
                  + " weighs 2-8 KB, so the default holds some 10,000-30,000. Each entry weighs at"
                  + " least `max-bytes` / `max-size`, so both bounds hold.");

  /** Setting {@code auth.cache.negative-ttl}: how long 401/403 answers are cached. */
  public static final Setting<Duration> NEGATIVE_TTL =
      Setting.duration("auth.cache.negative-ttl", DEFAULT_NEGATIVE_TTL, Duration.ZERO, MAX_DURATION)
          .about("cache 401/403 answers this long; 0: off");

  /** Setting {@code auth.cache.stale-if-error}: extra time past the TTL while the module fails. */
  public static final Setting<Duration> STALE_IF_ERROR =
      Setting.duration(
              "auth.cache.stale-if-error", DEFAULT_STALE_IF_ERROR, Duration.ZERO, MAX_DURATION)
          .about(
              "serve an expired entry this much longer while the auth module is unreachable, never"
                  + " past its token's `exp`; 0: off");

  /** Okapi's {@code token_cache_ttl_ms}: a whole number of milliseconds. */
  private static Duration millis(String text) {
    try {
      return Duration.ofMillis(Long.parseLong(text.trim()));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Every setting, in documentation order. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(ENABLED, TTL, MAX_SIZE, MAX_BYTES, NEGATIVE_TTL, STALE_IF_ERROR);

  private boolean enabled;
  private Duration ttl;
  private int maxSize;
  private long maxBytes;
  private Duration negativeTtl;
  private Duration staleIfError;

  /** Creates options with all defaults. */
  public AuthCacheOptions() {
    enabled = DEFAULT_ENABLED;
    ttl = DEFAULT_TTL;
    maxSize = DEFAULT_MAX_SIZE;
    maxBytes = DEFAULT_MAX_BYTES;
    negativeTtl = DEFAULT_NEGATIVE_TTL;
    staleIfError = DEFAULT_STALE_IF_ERROR;
  }

  /**
   * Creates a copy of {@code other}.
   *
   * @param other the options to copy, not null
   */
  public AuthCacheOptions(AuthCacheOptions other) {
    enabled = other.enabled;
    ttl = other.ttl;
    maxSize = other.maxSize;
    maxBytes = other.maxBytes;
    negativeTtl = other.negativeTtl;
    staleIfError = other.staleIfError;
  }

  /**
   * Reads the {@code auth.cache.*} settings; other keys are left to their readers.
   *
   * @param settings flags and conf file
   * @return the validated options, defaults for the settings not given
   * @throws IllegalArgumentException naming the key, for a value not following the rules or out of
   *     range
   */
  public static AuthCacheOptions from(Settings settings) {
    return new AuthCacheOptions()
        .setEnabled(settings.get(ENABLED))
        .setTtl(settings.get(TTL))
        .setMaxSize(settings.get(MAX_SIZE))
        .setMaxBytes(settings.get(MAX_BYTES))
        .setNegativeTtl(settings.get(NEGATIVE_TTL))
        .setStaleIfError(settings.get(STALE_IF_ERROR));
  }

  /**
   * @return whether decisions are cached; default {@value #DEFAULT_ENABLED}
   */
  public boolean isEnabled() {
    return enabled;
  }

  /**
   * Sets whether decisions are cached. When off, every lookup calls the auth module.
   *
   * @param enabled true to cache
   * @return this, for chaining
   */
  public AuthCacheOptions setEnabled(boolean enabled) {
    this.enabled = enabled;
    return this;
  }

  /**
   * @return how long a grant is served from the cache, at most; default 180 s
   */
  public Duration getTtl() {
    return ttl;
  }

  /**
   * Sets how long a granted decision is served from the cache; the token's own {@code exp} shortens
   * it.
   *
   * @param ttl at least 1 ms, at most {@link #MAX_DURATION}
   * @return this, for chaining
   * @throws IllegalArgumentException if null or out of range
   */
  public AuthCacheOptions setTtl(Duration ttl) {
    this.ttl = TTL.check(ttl);
    return this;
  }

  /**
   * @return the maximum number of cached decisions; default {@value #DEFAULT_MAX_SIZE}
   */
  public int getMaxSize() {
    return maxSize;
  }

  /**
   * Sets the maximum number of cached decisions; beyond it the least useful entries are evicted.
   *
   * @param maxSize greater than zero (turn the cache off with {@link #setEnabled} instead)
   * @return this, for chaining
   * @throws IllegalArgumentException if not positive
   */
  public AuthCacheOptions setMaxSize(int maxSize) {
    this.maxSize = MAX_SIZE.check(maxSize);
    return this;
  }

  /**
   * @return the most the entries may weigh, in estimated heap bytes; default 64 MiB
   */
  public long getMaxBytes() {
    return maxBytes;
  }

  /**
   * Sets the most the cached decisions may weigh: each entry is weighed by the strings of its key
   * and answer (a token, a user id, module tokens, permissions; about one byte a character plus
   * their objects), at least {@code maxBytes / maxSize}; beyond it the least useful entries are
   * evicted. So a client cannot fill the heap with huge or many distinct key parts.
   *
   * @param maxBytes 64 KiB to 64 GiB
   * @return this, for chaining
   * @throws IllegalArgumentException if out of range
   */
  public AuthCacheOptions setMaxBytes(long maxBytes) {
    this.maxBytes = MAX_BYTES.check(maxBytes);
    return this;
  }

  /**
   * @return how long 401/403 answers are cached, zero when not; default zero
   */
  public Duration getNegativeTtl() {
    return negativeTtl;
  }

  /**
   * Sets how long 401 and 403 answers of the auth module are cached. Zero turns negative caching
   * off; other non-2xx answers are never cached.
   *
   * @param negativeTtl zero or more, at most {@link #MAX_DURATION}
   * @return this, for chaining
   * @throws IllegalArgumentException if null or out of range
   */
  public AuthCacheOptions setNegativeTtl(Duration negativeTtl) {
    this.negativeTtl = NEGATIVE_TTL.check(negativeTtl);
    return this;
  }

  /**
   * @return the extra time past the TTL a decision may be served on auth errors; default 0
   */
  public Duration getStaleIfError() {
    return staleIfError;
  }

  /**
   * Sets how long past its TTL a cached decision may still be served when refreshing it fails with
   * an exception (the auth module is unreachable). Never past the token's {@code exp}.
   *
   * @param staleIfError zero (off) or more, at most {@link #MAX_DURATION}
   * @return this, for chaining
   * @throws IllegalArgumentException if null or out of range
   */
  public AuthCacheOptions setStaleIfError(Duration staleIfError) {
    this.staleIfError = STALE_IF_ERROR.check(staleIfError);
    return this;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AuthCacheOptions other
        && enabled == other.enabled
        && ttl.equals(other.ttl)
        && maxSize == other.maxSize
        && maxBytes == other.maxBytes
        && negativeTtl.equals(other.negativeTtl)
        && staleIfError.equals(other.staleIfError);
  }

  @Override
  public int hashCode() {
    return Objects.hash(enabled, ttl, maxSize, maxBytes, negativeTtl, staleIfError);
  }

  @Override
  public String toString() {
    return "AuthCacheOptions{enabled="
        + enabled
        + ", ttl="
        + TTL.format(ttl)
        + ", maxSize="
        + maxSize
        + ", maxBytes="
        + MAX_BYTES.format(maxBytes)
        + ", negativeTtl="
        + NEGATIVE_TTL.format(negativeTtl)
        + ", staleIfError="
        + STALE_IF_ERROR.format(staleIfError)
        + "}";
  }
}
