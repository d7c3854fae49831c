package io.okapigw.cache;

import java.util.Map;

/**
 * What a cache entry weighs for {@link AuthCacheOptions#maxBytes()}: an estimate of the heap it
 * holds. Its own objects (Caffeine's node and its map's, the future, the held decision, the key
 * with the token's digest, the decision's expiry) at a fixed cost, measured (see {@code
 * EntryWeightTest}); the strings only the entry holds at one byte a character plus their objects
 * (the JDK's compact strings: tokens, ids and permission names are Latin-1); nothing for what it
 * shares: the request's token, which it holds as a digest ({@link StoredKey}) and as a marker
 * ({@link CompactDecision}), and the strings held once ({@link Names}). At least {@code floor}, so
 * that the byte bound also keeps the entries to {@link AuthCacheOptions#maxSize()}.
 */
final class EntryWeight {

  /** A String object and its array header (64-bit JVM, compressed oops). */
  private static final int STRING = 40;

  /**
   * Caffeine's node and its map's node, the future, the cached decision, the decision, the key and
   * the expiry instant, as measured on a 64-bit JVM with compressed oops.
   */
  static final int ENTRY = 324;

  /** A module-token map of its own, and each of its entries. */
  private static final int MAP = 32;

  private static final int MAP_ENTRY = 32;

  private final long floor;
  private final Names names;

  /**
   * @param floor the least weight of an entry: {@code maxBytes / maxSize}
   * @param names the strings held once
   */
  EntryWeight(long floor, Names names) {
    this.floor = floor;
    this.names = names;
  }

  /**
   * @return the entry's weight in bytes, at least the floor, at most {@link Integer#MAX_VALUE}
   */
  int of(StoredKey key, CachedDecision entry) {
    AuthDecision d = entry.decision();
    long bytes =
        ENTRY
            + shared(key.tenant())
            + shared(key.method())
            + shared(key.pathPattern())
            + size(key.userId())
            + size(key.session())
            + token(d.moduleToken())
            + (d.userId() == key.userId() ? 0 : size(d.userId()))
            + shared(d.permissions())
            + size(d.body())
            + shared(d.contentType());
    Map<String, String> moduleTokens = d.moduleTokens();
    if (!moduleTokens.isEmpty() && !CompactDecision.isDefaultOnly(moduleTokens)) {
      bytes += MAP;
      for (Map.Entry<String, String> moduleToken : moduleTokens.entrySet()) {
        bytes += MAP_ENTRY + size(moduleToken.getKey()) + token(moduleToken.getValue());
      }
    }
    return (int) Math.min(Integer.MAX_VALUE, Math.max(floor, bytes));
  }

  private long shared(String s) {
    return names.holds(s) ? 0 : size(s);
  }

  private static long token(String s) {
    return CompactDecision.isRequestToken(s) ? 0 : size(s);
  }

  private static long size(String s) {
    return s.isEmpty() ? 0 : STRING + s.length();
  }
}
