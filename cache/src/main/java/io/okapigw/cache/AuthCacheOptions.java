package io.okapigw.cache;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;
import java.util.Map;

/**
 * Settings of an {@link AuthCache}, validated on creation. Each setting ({@code auth.cache.*}: key,
 * accepted values, default, meaning) is declared once, in a {@link Setting} constant below; the
 * defaults, the ranges and the docs tables come from there, and a value out of range fails with an
 * {@link IllegalArgumentException} naming the setting, e.g. {@code auth.cache.ttl must be between
 * 1ms and 365d, was '0'}.
 *
 * <p>The gateway reads them from flags or {@code -conf} JSON with {@link #from(Settings)}, by the
 * rules of {@link Settings}: durations with a unit ({@code 180s}), booleans true/false, yes/no,
 * on/off. In code, start from {@link #defaults()} and change what differs with the withers.
 *
 * @param enabled whether decisions are cached at all; when off, every lookup calls the auth module
 * @param ttl how long a granted decision is served from the cache, at most; the token's own {@code
 *     exp} shortens it
 * @param maxSize the most decisions kept; beyond it the least useful are evicted (turn the cache
 *     off with {@code enabled} instead of a size of zero)
 * @param maxBytes the most the decisions may weigh: each entry is weighed by the strings of its key
 *     and answer (a token, a user id, module tokens, permissions; about one byte a character plus
 *     their objects), at least {@code maxBytes / maxSize}; beyond it the least useful are evicted,
 *     so a client cannot fill the heap with huge or many distinct key parts
 * @param negativeTtl how long 401 and 403 answers are cached; zero: not at all (other non-2xx
 *     answers never are)
 * @param staleIfError how long past its TTL a decision may still be served while refreshing it
 *     fails with an exception (the auth module is unreachable); never past the token's {@code exp};
 *     zero: off
 */
public record AuthCacheOptions(
    boolean enabled,
    Duration ttl,
    int maxSize,
    long maxBytes,
    Duration negativeTtl,
    Duration staleIfError) {

  /** Upper bound of every duration setting. */
  private static final Duration MAX_DURATION = Duration.ofDays(365);

  /** Setting {@code auth.cache.enabled}. */
  public static final Setting<Boolean> ENABLED =
      Setting.bool("auth.cache.enabled", true).about("cache auth decisions");

  /** Setting {@code auth.cache.ttl}; Okapi's {@code token_cache_ttl_ms} is its alias. */
  public static final Setting<Duration> TTL =
      Setting.duration(
              "auth.cache.ttl", Duration.ofSeconds(180), Duration.ofMillis(1), MAX_DURATION)
          .alias("token_cache_ttl_ms", AuthCacheOptions::millis, "a whole number of milliseconds")
          .about("longest an entry lives (never past its token's `exp`)");

  /** Setting {@code auth.cache.max-size}; Okapi's {@code token_cache_max_size} is its alias. */
  public static final Setting<Integer> MAX_SIZE =
      Setting.integer("auth.cache.max-size", 250_000, 1, Integer.MAX_VALUE)
          .alias("token_cache_max_size")
          .about("entries kept (W-TinyLFU eviction)");

  /** Setting {@code auth.cache.max-bytes}. */
  public static final Setting<Long> MAX_BYTES =
      Setting.size("auth.cache.max-bytes", 64L * 1024 * 1024, 64 * 1024, 64L * 1024 * 1024 * 1024)
          .about("heap the entries may hold, estimated (W-TinyLFU eviction)")
          .details(
              "An entry weighs its own objects (about 320 bytes: the request's token held as its"
                  + " SHA-256 digest, never as itself, and the strings many entries share held"
                  + " once) and the strings only it holds: a FOLIO grant (a user id, the module"
                  + " token and `_` being the request's token) about 400 bytes, so the default holds"
                  + " some 160,000; a grant that hands out tokens of modules with module"
                  + " permissions holds each of them too. Each entry weighs at least `max-bytes` /"
                  + " `max-size`, so both bounds hold.");

  /** Setting {@code auth.cache.negative-ttl}. */
  public static final Setting<Duration> NEGATIVE_TTL =
      Setting.duration("auth.cache.negative-ttl", Duration.ZERO, Duration.ZERO, MAX_DURATION)
          .about("cache 401/403 answers this long; 0: off");

  /** Setting {@code auth.cache.stale-if-error}. */
  public static final Setting<Duration> STALE_IF_ERROR =
      Setting.duration("auth.cache.stale-if-error", Duration.ZERO, Duration.ZERO, MAX_DURATION)
          .about(
              "serve an expired entry this much longer while the auth module is unreachable, never"
                  + " past its token's `exp`; 0: off")
          .details(
              "Counted, as the TTL is, from when the auth call started: an answer that came after"
                  + " the TTL (a busy auth module) is kept for the rest of the window.");

  /** Every setting, in documentation order. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(ENABLED, TTL, MAX_SIZE, MAX_BYTES, NEGATIVE_TTL, STALE_IF_ERROR);

  /**
   * @throws IllegalArgumentException naming the setting that is null or out of range
   */
  public AuthCacheOptions {
    TTL.check(ttl);
    MAX_SIZE.check(maxSize);
    MAX_BYTES.check(maxBytes);
    NEGATIVE_TTL.check(negativeTtl);
    STALE_IF_ERROR.check(staleIfError);
  }

  /**
   * @return every setting at its declared default
   */
  public static AuthCacheOptions defaults() {
    return from(Settings.of(Map.of()));
  }

  /**
   * Reads the {@code auth.cache.*} settings; other keys are left to their readers.
   *
   * @param settings flags and conf file
   * @return the options, defaults for the settings not given
   * @throws IllegalArgumentException naming the key, for a value not following the rules or out of
   *     range
   */
  public static AuthCacheOptions from(Settings settings) {
    return new AuthCacheOptions(
        settings.get(ENABLED),
        settings.get(TTL),
        settings.get(MAX_SIZE),
        settings.get(MAX_BYTES),
        settings.get(NEGATIVE_TTL),
        settings.get(STALE_IF_ERROR));
  }

  /**
   * @return these, caching or not
   */
  public AuthCacheOptions withEnabled(boolean on) {
    return new AuthCacheOptions(on, ttl, maxSize, maxBytes, negativeTtl, staleIfError);
  }

  /**
   * @return these with another {@code ttl}
   */
  public AuthCacheOptions withTtl(Duration newTtl) {
    return new AuthCacheOptions(enabled, newTtl, maxSize, maxBytes, negativeTtl, staleIfError);
  }

  /**
   * @return these with another {@code maxSize}
   */
  public AuthCacheOptions withMaxSize(int newMaxSize) {
    return new AuthCacheOptions(enabled, ttl, newMaxSize, maxBytes, negativeTtl, staleIfError);
  }

  /**
   * @return these with another {@code maxBytes}
   */
  public AuthCacheOptions withMaxBytes(long newMaxBytes) {
    return new AuthCacheOptions(enabled, ttl, maxSize, newMaxBytes, negativeTtl, staleIfError);
  }

  /**
   * @return these with another {@code negativeTtl}
   */
  public AuthCacheOptions withNegativeTtl(Duration newNegativeTtl) {
    return new AuthCacheOptions(enabled, ttl, maxSize, maxBytes, newNegativeTtl, staleIfError);
  }

  /**
   * @return these with another {@code staleIfError}
   */
  public AuthCacheOptions withStaleIfError(Duration newStaleIfError) {
    return new AuthCacheOptions(enabled, ttl, maxSize, maxBytes, negativeTtl, newStaleIfError);
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

  /** Okapi's {@code token_cache_ttl_ms}: a whole number of milliseconds. */
  private static Duration millis(String text) {
    try {
      return Duration.ofMillis(Long.parseLong(text.trim()));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
