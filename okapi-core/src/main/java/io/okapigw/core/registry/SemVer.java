package io.okapigw.core.registry;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The version part of a module id, parsed and ordered as Okapi 6.1.5 does (okapi-common's {@code
 * SemVer}): one or more numeric components separated by dots ({@code 1}, {@code 1.2.3}, {@code
 * 1.2.3.4}), an optional pre-release after {@code -} ({@code -SNAPSHOT.5}), optional metadata after
 * {@code +}. A release sorts after its pre-releases.
 */
public final class SemVer implements Comparable<SemVer> {

  private static final int MAX_DIGITS = 18;

  private final List<String> components;
  private final List<String> preRelease;
  private final String metadata;

  private SemVer(List<String> components, List<String> preRelease, String metadata) {
    this.components = components;
    this.preRelease = preRelease;
    this.metadata = metadata;
  }

  /**
   * @param version e.g. {@code 19.2.0-SNAPSHOT.117+abc}
   * @throws IllegalArgumentException naming what is wrong, in Okapi's words
   */
  public static SemVer parse(String version) {
    List<String> components = new ArrayList<>();
    List<String> preRelease = new ArrayList<>();
    int at = component(version, 0, true, components, "missing major version: " + version);
    while (at < version.length() && version.charAt(at) == '.') {
      at = component(version, at + 1, true, components, "missing version component");
    }
    if (at < version.length() && version.charAt(at) == '-') {
      do {
        at = component(version, at + 1, false, preRelease, "missing pre-release version component");
      } while (at < version.length() && version.charAt(at) == '.');
    }
    if (at == version.length()) {
      return new SemVer(List.copyOf(components), List.copyOf(preRelease), null);
    }
    if (version.charAt(at) == '+') {
      return new SemVer(
          List.copyOf(components), List.copyOf(preRelease), version.substring(at + 1));
    }
    throw new IllegalArgumentException("invalid semver: " + version);
  }

  /**
   * @return the index after the component starting at {@code from}
   */
  private static int component(
      String s, int from, boolean digits, List<String> into, String missing) {
    int i = from;
    while (i < s.length()
        && (digits ? Character.isDigit(s.charAt(i)) : s.charAt(i) != '+' && s.charAt(i) != '.')) {
      i++;
    }
    if (digits && i - from > MAX_DIGITS) {
      throw new IllegalArgumentException("at most 18 digits for numeric component");
    }
    if (i == from) {
      throw new IllegalArgumentException(missing);
    }
    into.add(s.substring(from, i));
    return i;
  }

  /**
   * @return whether it has a pre-release part ({@code 1.0.0-SNAPSHOT})
   */
  public boolean isPreRelease() {
    return !preRelease.isEmpty();
  }

  /**
   * @return whether it looks like a FOLIO npm snapshot: three components, the third of at least
   *     five digits ({@code 1.2.100012})
   */
  public boolean isNpmSnapshot() {
    return components.size() == 3 && components.get(2).length() >= 5;
  }

  /**
   * @return whether {@code prefix}'s components (then pre-release, then metadata, where given)
   *     begin this version: {@code 1.2.3} has the prefixes {@code 1}, {@code 1.2}, {@code 1.2.3}
   */
  public boolean hasPrefix(SemVer prefix) {
    int parts = startsWith(components, prefix.components);
    if (parts != 0) {
      return parts > 0;
    }
    parts = startsWith(preRelease, prefix.preRelease);
    if (parts != 0) {
      return parts > 0;
    }
    return prefix.metadata == null || prefix.metadata.equals(metadata);
  }

  /**
   * @return 1 if {@code list} is longer and starts with {@code prefix}, 0 if equal, else -1
   */
  private static int startsWith(List<String> list, List<String> prefix) {
    for (int i = 0; i < Math.min(list.size(), prefix.size()); i++) {
      if (compareComponent(list.get(i), prefix.get(i)) != 0) {
        return -1;
      }
    }
    return Integer.signum(list.size() - prefix.size());
  }

  /**
   * Okapi's order, with its levels: ±4 the major component differs, ±3 the minor, ±2 a later
   * component, ±1 the pre-release or metadata, 0 equal.
   */
  @Override
  public int compareTo(SemVer other) {
    Iterator<String> mine = components.iterator();
    Iterator<String> theirs = other.components.iterator();
    int level = 4;
    while (mine.hasNext() && theirs.hasNext()) {
      long diff = compareComponent(mine.next(), theirs.next());
      if (diff != 0) {
        return diff > 0 ? level : -level;
      }
      level = Math.max(level - 1, 2);
    }
    if (mine.hasNext() || theirs.hasNext()) {
      return mine.hasNext() ? level : -level;
    }
    int pre = comparePreRelease(other);
    if (pre != 0) {
      return pre;
    }
    if (metadata == null || other.metadata == null) {
      return metadata == null ? (other.metadata == null ? 0 : -1) : 1;
    }
    return Integer.signum(metadata.compareTo(other.metadata));
  }

  /** A version without pre-release sorts after one with. */
  private int comparePreRelease(SemVer other) {
    if (preRelease.isEmpty() != other.preRelease.isEmpty()) {
      return preRelease.isEmpty() ? 1 : -1;
    }
    for (int i = 0; i < Math.min(preRelease.size(), other.preRelease.size()); i++) {
      long diff = compareComponent(preRelease.get(i), other.preRelease.get(i));
      if (diff != 0) {
        return diff > 0 ? 1 : -1;
      }
    }
    return Integer.signum(preRelease.size() - other.preRelease.size());
  }

  /** Numbers numerically, text lexically, text after numbers. */
  private static long compareComponent(String a, String b) {
    boolean aNumber = allDigits(a);
    boolean bNumber = allDigits(b);
    if (aNumber && bNumber) {
      return Long.parseLong(a) - Long.parseLong(b);
    }
    return aNumber ? -1 : bNumber ? 1 : a.compareTo(b);
  }

  private static boolean allDigits(String s) {
    return s.chars().allMatch(Character::isDigit);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SemVer v && compareTo(v) == 0;
  }

  @Override
  public int hashCode() {
    return components.hashCode() * 31 + preRelease.hashCode();
  }

  @Override
  public String toString() {
    return String.join(".", components)
        + (preRelease.isEmpty() ? "" : "-" + String.join(".", preRelease))
        + (metadata == null ? "" : "+" + metadata);
  }
}
