package io.okapigw.core.install;

import java.util.ArrayList;
import java.util.List;

/**
 * A module version as Okapi 6.1.5 reads it: dot-separated numeric components (one or more),
 * then an optional {@code -pre.release} list, then optional {@code +metadata}. Numeric
 * components compare as numbers, others as text (text above numbers); a version without
 * pre-release is above the same version with one.
 */
final class SemVer implements Comparable<SemVer> {

  private final List<String> components;
  private final List<String> preRelease;
  private final String metadata;

  private SemVer(List<String> components, List<String> preRelease, String metadata) {
    this.components = components;
    this.preRelease = preRelease;
    this.metadata = metadata;
  }

  /**
   * @param text e.g. {@code 1.2.3}, {@code 1.2.3-SNAPSHOT.45}, {@code 10.0.1000001}
   * @throws IllegalArgumentException if it does not start with a digit or breaks the syntax
   */
  static SemVer parse(String text) {
    List<String> components = new ArrayList<>();
    int i = numeric(text, 0, components);
    while (i < text.length() && text.charAt(i) == '.') {
      i = numeric(text, i + 1, components);
    }
    List<String> pre = new ArrayList<>();
    if (i < text.length() && text.charAt(i) == '-') {
      i = label(text, i + 1, pre);
      while (i < text.length() && text.charAt(i) == '.') {
        i = label(text, i + 1, pre);
      }
    }
    String metadata = null;
    if (i < text.length()) {
      if (text.charAt(i) != '+') {
        throw new IllegalArgumentException("invalid version: " + text);
      }
      metadata = text.substring(i + 1);
    }
    return new SemVer(List.copyOf(components), List.copyOf(pre), metadata);
  }

  private static int numeric(String text, int from, List<String> into) {
    int i = from;
    while (i < text.length() && Character.isDigit(text.charAt(i))) {
      i++;
    }
    if (i == from || i - from > 18) {
      throw new IllegalArgumentException("invalid version component in " + text);
    }
    into.add(text.substring(from, i));
    return i;
  }

  private static int label(String text, int from, List<String> into) {
    int i = from;
    while (i < text.length() && text.charAt(i) != '+' && text.charAt(i) != '.') {
      i++;
    }
    if (i == from) {
      throw new IllegalArgumentException("empty pre-release component in " + text);
    }
    into.add(text.substring(from, i));
    return i;
  }

  /** @return whether it has a pre-release part ({@code 1.0.0-SNAPSHOT}) */
  boolean hasPreRelease() {
    return !preRelease.isEmpty();
  }

  /**
   * @return whether it looks like a FOLIO npm snapshot: three components, the third at least
   *     five digits long ({@code 1.2.100042})
   */
  boolean isNpmSnapshot() {
    return components.size() == 3 && components.get(2).length() >= 5;
  }

  @Override
  public int compareTo(SemVer other) {
    int c = compareLists(components, other.components);
    if (c != 0) {
      return c;
    }
    if (preRelease.isEmpty() != other.preRelease.isEmpty()) {
      return preRelease.isEmpty() ? 1 : -1;
    }
    c = compareLists(preRelease, other.preRelease);
    if (c != 0) {
      return c;
    }
    if (metadata == null || other.metadata == null) {
      return metadata == null ? (other.metadata == null ? 0 : -1) : 1;
    }
    return Integer.signum(metadata.compareTo(other.metadata));
  }

  private static int compareLists(List<String> a, List<String> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = compareComponent(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private static int compareComponent(String a, String b) {
    boolean na = isNumber(a);
    boolean nb = isNumber(b);
    if (na && nb) {
      return Long.compare(Long.parseLong(a), Long.parseLong(b));
    }
    if (na != nb) {
      return na ? -1 : 1;
    }
    return Integer.signum(a.compareTo(b));
  }

  private static boolean isNumber(String s) {
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
    String s = String.join(".", components);
    s = preRelease.isEmpty() ? s : s + "-" + String.join(".", preRelease);
    return metadata == null ? s : s + "+" + metadata;
  }
}
