package io.okapigw.cache;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * One copy of each string many entries share (tenant ids, methods, path patterns, permission lists,
 * content types), so that an entry holds a reference, not a copy. Bounded: past {@code max}
 * distinct strings, new ones are held by their entries as they are.
 */
final class Names {

  private final ConcurrentMap<String, String> names = new ConcurrentHashMap<>();
  private final int max;

  Names(int max) {
    this.max = max;
  }

  /**
   * @return the one copy of {@code s}: this string, or an equal one seen before
   */
  String canonical(String s) {
    if (s.isEmpty()) {
      return "";
    }
    String known = names.get(s);
    if (known != null) {
      return known;
    }
    if (names.size() >= max) {
      return s;
    }
    known = names.putIfAbsent(s, s);
    return known == null ? s : known;
  }

  /**
   * @return whether {@code s} is the one copy held here (an entry then weighs only its reference)
   */
  boolean holds(String s) {
    return s.isEmpty() || names.get(s) == s;
  }
}
