package io.okapigw.cache;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of an {@link AuthCache}: on/off, time to live, size bound, negative caching and
 * stale-if-error. Defaults live in the {@code DEFAULT_*} constants; every setter validates its
 * value and fails fast with an {@link IllegalArgumentException} that names the setting, e.g. {@code
 * auth.cache.ttl must be > 0, was -1s}.
 *
 * <p>The gateway builds it from flags or {@code -conf} JSON with {@link #fromSettings(Map)}, whose
 * keys are the {@code auth.cache.*} constants of this class. Instances are mutable and not
 * thread-safe; {@link AuthCache#create} takes a copy.
 */
public class AuthCacheOptions {

  /** Setting key: whether decisions are cached at all ({@code true}/{@code false}). */
  public static final String ENABLED = "auth.cache.enabled";

  /** Setting key: how long a granted decision is served from the cache (a duration). */
  public static final String TTL = "auth.cache.ttl";

  /** Setting key: the maximum number of cached decisions (a positive integer). */
  public static final String MAX_SIZE = "auth.cache.max-size";

  /** Setting key: how long 401/403 answers are cached (a duration, 0 = not cached). */
  public static final String NEGATIVE_TTL = "auth.cache.negative-ttl";

  /** Setting key: extra time past the TTL an entry may be served while the auth module fails. */
  public static final String STALE_IF_ERROR = "auth.cache.stale-if-error";

  /** Default of {@link #isEnabled()}: {@code true}. */
  public static final boolean DEFAULT_ENABLED = true;

  /** Default of {@link #getTtl()}: 180 seconds, as Okapi's TokenCache. */
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(180);

  /** Default of {@link #getMaxSize()}: 100,000 entries. */
  public static final long DEFAULT_MAX_SIZE = 100_000L;

  /** Default of {@link #getNegativeTtl()}: zero, denials are not cached. */
  public static final Duration DEFAULT_NEGATIVE_TTL = Duration.ZERO;

  /** Default of {@link #getStaleIfError()}: zero, nothing is served past its TTL. */
  public static final Duration DEFAULT_STALE_IF_ERROR = Duration.ZERO;

  /** Upper bound of every duration setting: 365 days. */
  public static final Duration MAX_DURATION = Duration.ofDays(365);

  private static final String PREFIX = "auth.cache.";
  private static final List<String> KEYS =
      List.of(ENABLED, TTL, MAX_SIZE, NEGATIVE_TTL, STALE_IF_ERROR);

  private boolean enabled;
  private Duration ttl;
  private long maxSize;
  private Duration negativeTtl;
  private Duration staleIfError;

  /** Creates options with all defaults. */
  public AuthCacheOptions() {
    enabled = DEFAULT_ENABLED;
    ttl = DEFAULT_TTL;
    maxSize = DEFAULT_MAX_SIZE;
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
    negativeTtl = other.negativeTtl;
    staleIfError = other.staleIfError;
  }

  /**
   * Creates options from defaults overridden by {@code settings}; see {@link #fromSettings(Map)}.
   *
   * @param settings setting key to value, not null
   * @throws IllegalArgumentException naming the key, for an unknown {@code auth.cache.*} key or a
   *     bad value
   */
  public AuthCacheOptions(Map<String, ?> settings) {
    this();
    settings.forEach(this::apply);
  }

  /**
   * Builds options from a flat map of settings, as read from command-line flags or the {@code
   * -conf} JSON. Keys outside {@code auth.cache.} are ignored, so the gateway can pass its whole
   * configuration. Values:
   *
   * <ul>
   *   <li>{@value #ENABLED}: a Boolean, or the string {@code true} or {@code false}
   *   <li>{@value #TTL}, {@value #NEGATIVE_TTL}, {@value #STALE_IF_ERROR}: a number of seconds
   *       (decimals allowed), a {@link Duration}, or a string with a unit: {@code 500ms}, {@code
   *       180s}, {@code 3m}, {@code 1h}, {@code 1d}, {@code 180} (seconds) or ISO-8601 {@code PT3M}
   *   <li>{@value #MAX_SIZE}: an integral number, or a string of digits
   * </ul>
   *
   * @param settings setting key to value, not null
   * @return the validated options
   * @throws IllegalArgumentException naming the key, for an unknown {@code auth.cache.*} key, a
   *     null or unparseable value, or a value out of range
   */
  public static AuthCacheOptions fromSettings(Map<String, ?> settings) {
    return new AuthCacheOptions(settings);
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
   * @param ttl greater than zero, at most {@link #MAX_DURATION}
   * @return this, for chaining
   * @throws IllegalArgumentException if null or out of range
   */
  public AuthCacheOptions setTtl(Duration ttl) {
    this.ttl = checkDuration(TTL, ttl, false);
    return this;
  }

  /**
   * @return the maximum number of cached decisions; default {@value #DEFAULT_MAX_SIZE}
   */
  public long getMaxSize() {
    return maxSize;
  }

  /**
   * Sets the maximum number of cached decisions; beyond it the least useful entries are evicted.
   *
   * @param maxSize greater than zero (turn the cache off with {@link #setEnabled} instead)
   * @return this, for chaining
   * @throws IllegalArgumentException if not positive
   */
  public AuthCacheOptions setMaxSize(long maxSize) {
    if (maxSize <= 0) {
      throw new IllegalArgumentException(MAX_SIZE + " must be > 0, was " + maxSize);
    }
    this.maxSize = maxSize;
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
    this.negativeTtl = checkDuration(NEGATIVE_TTL, negativeTtl, true);
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
    this.staleIfError = checkDuration(STALE_IF_ERROR, staleIfError, true);
    return this;
  }

  /**
   * Returns the settings as a map that {@link #fromSettings(Map)} reads back: Boolean enabled, Long
   * max size, durations as strings in their largest exact unit ({@code 3m}, {@code 500ms}).
   *
   * @return a new mutable map in key order
   */
  public Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put(ENABLED, enabled);
    map.put(TTL, SettingValues.format(ttl));
    map.put(MAX_SIZE, maxSize);
    map.put(NEGATIVE_TTL, SettingValues.format(negativeTtl));
    map.put(STALE_IF_ERROR, SettingValues.format(staleIfError));
    return map;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AuthCacheOptions other
        && enabled == other.enabled
        && ttl.equals(other.ttl)
        && maxSize == other.maxSize
        && negativeTtl.equals(other.negativeTtl)
        && staleIfError.equals(other.staleIfError);
  }

  @Override
  public int hashCode() {
    return Objects.hash(enabled, ttl, maxSize, negativeTtl, staleIfError);
  }

  @Override
  public String toString() {
    return "AuthCacheOptions{enabled="
        + enabled
        + ", ttl="
        + SettingValues.format(ttl)
        + ", maxSize="
        + maxSize
        + ", negativeTtl="
        + SettingValues.format(negativeTtl)
        + ", staleIfError="
        + SettingValues.format(staleIfError)
        + "}";
  }

  private void apply(String key, Object value) {
    if (!key.startsWith(PREFIX)) {
      return;
    }
    switch (key) {
      case ENABLED -> setEnabled(SettingValues.toBoolean(key, value));
      case TTL -> setTtl(SettingValues.toDuration(key, value));
      case MAX_SIZE -> setMaxSize(SettingValues.toLong(key, value));
      case NEGATIVE_TTL -> setNegativeTtl(SettingValues.toDuration(key, value));
      case STALE_IF_ERROR -> setStaleIfError(SettingValues.toDuration(key, value));
      default ->
          throw new IllegalArgumentException(
              "unknown setting " + key + ", known: " + String.join(", ", KEYS));
    }
  }

  private static Duration checkDuration(String key, Duration value, boolean zeroAllowed) {
    if (value == null) {
      throw new IllegalArgumentException(key + " must not be null");
    }
    if (zeroAllowed ? value.isNegative() : value.isNegative() || value.isZero()) {
      String bound = zeroAllowed ? ">= 0" : "> 0";
      throw new IllegalArgumentException(
          key + " must be " + bound + ", was " + SettingValues.format(value));
    }
    if (value.compareTo(MAX_DURATION) > 0) {
      throw new IllegalArgumentException(
          key
              + " must be <= "
              + SettingValues.format(MAX_DURATION)
              + ", was "
              + SettingValues.format(value));
    }
    return value;
  }
}
