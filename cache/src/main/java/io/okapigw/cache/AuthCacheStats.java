package io.okapigw.cache;

/**
 * A snapshot of an {@link AuthCache}'s counters since it was created.
 *
 * @param size entries held now, loads in flight included
 * @param bytes what the entries weigh, estimated heap bytes (see {@link AuthCacheOptions#maxBytes})
 * @param hits lookups answered from the cache without an auth call
 * @param misses lookups that started an auth call or waited for one
 * @param hitRatio {@code hits / (hits + misses)}, 0 before the first lookup
 * @param loads auth calls made (a revalidation of a stale entry is one)
 * @param loadFailures auth calls that failed with an exception and could not be answered from a
 *     stale entry
 * @param evictions entries dropped because the cache was full; expiry is not eviction
 * @param staleServed answers served from a stale entry because the auth call failed
 */
public record AuthCacheStats(
    long size,
    long bytes,
    long hits,
    long misses,
    double hitRatio,
    long loads,
    long loadFailures,
    long evictions,
    long staleServed) {}
