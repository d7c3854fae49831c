package io.okapigw.cache;

import java.util.Map;

/**
 * What a cache entry weighs for {@link AuthCacheOptions#maxBytes()}: an estimate of the heap it
 * holds, its strings (key parts, tokens, permissions, a refusal's body) at one byte a character
 * plus their objects (the JDK's compact strings: tokens, ids and permission names are Latin-1), and
 * a fixed cost for the entry's own objects. At least {@code floor}, so that the byte bound also
 * keeps the entries to {@link AuthCacheOptions#maxSize()}.
 */
final class EntryWeight {

  /** A String object and its array header (64-bit JVM, compressed oops). */
  private static final int STRING = 40;

  /** Caffeine's node, the future, the cached decision, the decision and the key objects. */
  private static final int ENTRY = 240;

  /** A module-token map entry. */
  private static final int MAP_ENTRY = 32;

  private final long floor;

  /**
   * @param floor the least weight of an entry: {@code maxBytes / maxSize}
   */
  EntryWeight(long floor) {
    this.floor = floor;
  }

  /**
   * @return the entry's weight in bytes, at least the floor, at most {@link Integer#MAX_VALUE}
   */
  int of(AuthCacheKey key, CachedDecision entry) {
    AuthDecision d = entry.decision();
    long bytes =
        ENTRY
            + size(key.tenant())
            + size(key.method())
            + size(key.pathPattern())
            + size(key.userId())
            + size(key.token())
            + size(d.moduleToken())
            + size(d.userId())
            + size(d.permissions())
            + size(d.body())
            + size(d.contentType());
    for (Map.Entry<String, String> moduleToken : d.moduleTokens().entrySet()) {
      bytes += MAP_ENTRY + size(moduleToken.getKey()) + size(moduleToken.getValue());
    }
    return (int) Math.min(Integer.MAX_VALUE, Math.max(floor, bytes));
  }

  private static long size(String s) {
    return STRING + s.length();
  }
}
