package io.okapigw.core.routing;

import java.util.Arrays;

/**
 * An Okapi path pattern compiled once: {@code {name}} matches one path segment (one or more
 * characters, no {@code /}), {@code *} matches anything (including {@code /}); everything else is
 * literal. Matched against the path without the query string, in time linear in the path whatever
 * the pattern: a pattern is a small automaton run on the path once, never a regular expression that
 * backtracks (one with many {@code *} took time exponential in a path that almost matched).
 *
 * <p>The common patterns ({@code {name}} followed by {@code /} or the end, {@code *} only at the
 * end) are matched in one pass without allocating; the others by following every state of the
 * automaton at once, one bit each.
 */
final class PathPattern {

  /** The automaton's steps: a literal character, or one of these. */
  private static final char SEGMENT_FIRST = '\uE000';

  private static final char SEGMENT_REST = '\uE001';
  private static final char ANYTHING = '\uE002';

  private final String source;
  private final char[] steps;
  private final boolean simple;
  private final String firstSegment;
  private final int literalChars;
  private final int params;
  private final int wildcards;

  private PathPattern(String source, char[] steps, int literalChars, int params, int wildcards) {
    this.source = source;
    this.steps = steps;
    this.simple = isSimple(steps);
    this.firstSegment = firstSegment(source);
    this.literalChars = literalChars;
    this.params = params;
    this.wildcards = wildcards;
  }

  static PathPattern compile(String pattern) {
    StringBuilder steps = new StringBuilder();
    int literalChars = 0;
    int params = 0;
    int wildcards = 0;
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      int close = c == '{' ? pattern.indexOf('}', i) : -1;
      if (c == '*') {
        steps.append(ANYTHING);
        wildcards++;
      } else if (close > 0) {
        steps.append(SEGMENT_FIRST).append(SEGMENT_REST);
        params++;
        i = close;
      } else {
        steps.append(c);
        literalChars++;
      }
    }
    return new PathPattern(
        pattern, steps.toString().toCharArray(), literalChars, params, wildcards);
  }

  /**
   * @return the literal first segment ({@code "circulation"} for /circulation/...), or null
   */
  String firstSegment() {
    return firstSegment;
  }

  boolean matches(String path) {
    return simple ? matchesInOnePass(path) : matchesEveryState(path, null);
  }

  /**
   * The work one match takes, counted: each path character read, each live state moved and each
   * state looked at to close over empty matches. A test checks it is linear in the path, whatever
   * the pattern, without a stopwatch.
   */
  static final class Work {
    long count;
  }

  boolean matches(String path, Work work) {
    if (simple) {
      work.count += path.length() + steps.length;
      return matchesInOnePass(path);
    }
    return matchesEveryState(path, work);
  }

  /**
   * Each {@code {name}} is followed by {@code /} or the end, so it takes the path up to the next
   * {@code /}; a {@code *} can only be last, so it takes the rest.
   */
  private boolean matchesInOnePass(String path) {
    int at = 0;
    for (int s = 0; s < steps.length; s++) {
      char step = steps[s];
      if (step == ANYTHING) {
        return true;
      }
      if (step == SEGMENT_FIRST) {
        int end = path.indexOf('/', at);
        end = end < 0 ? path.length() : end;
        if (end == at) {
          return false;
        }
        at = end;
        s++; // SEGMENT_REST: taken with the first
      } else if (at == path.length() || path.charAt(at++) != step) {
        return false;
      }
    }
    return at == path.length();
  }

  /**
   * Runs the automaton on every state at once: state {@code s} means "steps before {@code s}
   * matched". Each path character moves each live state at most one step on; a {@code *} or the
   * rest of a {@code {name}} may also stay, or be skipped when it matches nothing.
   */
  private boolean matchesEveryState(String path, Work work) {
    long[] live = new long[steps.length / 64 + 1];
    long[] next = new long[live.length];
    long moved = 0;
    set(live, 0);
    closeOverEmpty(live);
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      Arrays.fill(next, 0);
      boolean any = false;
      for (int s = nextSet(live, 0); s >= 0 && s < steps.length; s = nextSet(live, s + 1)) {
        moved++;
        char step = steps[s];
        boolean stay = step == ANYTHING || step == SEGMENT_REST && c != '/';
        boolean advance = step == ANYTHING || step == c || step == SEGMENT_FIRST && c != '/';
        if (stay) {
          set(next, s);
          any = true;
        } else if (advance && step != SEGMENT_REST) {
          set(next, s + 1);
          any = true;
        }
      }
      if (!any) {
        count(work, moved, i + 1);
        return false;
      }
      long[] swap = live;
      live = next;
      next = swap;
      closeOverEmpty(live);
    }
    count(work, moved, path.length());
    return isSet(live, steps.length);
  }

  /** Adds a match's work: {@code moved} states, {@code chars} characters each closed over. */
  private void count(Work work, long moved, int chars) {
    if (work != null) {
      work.count += moved + (chars + 1L) * (steps.length + 1);
    }
  }

  /** A live {@code *} or rest of a {@code {name}} may match nothing: the state after it is live. */
  private void closeOverEmpty(long[] live) {
    for (int s = 0; s < steps.length; s++) {
      if (isSet(live, s) && (steps[s] == ANYTHING || steps[s] == SEGMENT_REST)) {
        set(live, s + 1);
      }
    }
  }

  private static void set(long[] bits, int i) {
    bits[i >>> 6] |= 1L << i;
  }

  private static boolean isSet(long[] bits, int i) {
    return (bits[i >>> 6] & 1L << i) != 0;
  }

  /**
   * @return the first set bit at or after {@code from}, or -1
   */
  private static int nextSet(long[] bits, int from) {
    int word = from >>> 6;
    if (word >= bits.length) {
      return -1;
    }
    long w = bits[word] & -1L << from;
    while (true) {
      if (w != 0) {
        return word * 64 + Long.numberOfTrailingZeros(w);
      }
      if (++word == bits.length) {
        return -1;
      }
      w = bits[word];
    }
  }

  /** Whether every {@code {name}} is followed by {@code /} or the end, and {@code *} is last. */
  private static boolean isSimple(char[] steps) {
    for (int s = 0; s < steps.length; s++) {
      if (steps[s] == ANYTHING && s != steps.length - 1) {
        return false;
      }
      if (steps[s] == SEGMENT_REST && s + 1 < steps.length && steps[s + 1] != '/') {
        return false;
      }
    }
    return true;
  }

  /**
   * Orders patterns most specific first: more literal characters, then fewer {@code *}, then fewer
   * {@code {param}}s.
   */
  int compareSpecificity(PathPattern other) {
    if (literalChars != other.literalChars) {
      return Integer.compare(other.literalChars, literalChars);
    }
    if (wildcards != other.wildcards) {
      return Integer.compare(wildcards, other.wildcards);
    }
    return Integer.compare(params, other.params);
  }

  @Override
  public String toString() {
    return source;
  }

  private static String firstSegment(String pattern) {
    int end = pattern.indexOf('/', 1);
    String segment = end < 0 ? pattern.substring(1) : pattern.substring(1, end);
    boolean literal = !segment.isEmpty() && segment.indexOf('*') < 0 && segment.indexOf('{') < 0;
    return literal && end > 0 ? segment : literal && end < 0 ? segment : null;
  }
}
