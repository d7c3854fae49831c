package io.okapigw.core.routing;

import java.util.regex.Pattern;

/**
 * An Okapi path pattern compiled once: {@code {name}} matches one path segment, {@code *} matches
 * anything (including {@code /}); everything else is literal. Matched against the path without the
 * query string.
 */
final class PathPattern {

  private final String source;
  private final Pattern regex;
  private final String firstSegment;
  private final int literalChars;
  private final int params;
  private final int wildcards;

  private PathPattern(
      String source,
      Pattern regex,
      String firstSegment,
      int literalChars,
      int params,
      int wildcards) {
    this.source = source;
    this.regex = regex;
    this.firstSegment = firstSegment;
    this.literalChars = literalChars;
    this.params = params;
    this.wildcards = wildcards;
  }

  static PathPattern compile(String pattern) {
    StringBuilder regex = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    int literalChars = 0;
    int params = 0;
    int wildcards = 0;
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      int close = c == '{' ? pattern.indexOf('}', i) : -1;
      if (c == '*' || close > 0) {
        regex.append(Pattern.quote(literal.toString())).append(c == '*' ? ".*" : "[^/]+");
        literal.setLength(0);
        wildcards += c == '*' ? 1 : 0;
        params += c == '*' ? 0 : 1;
        i = c == '*' ? i : close;
      } else {
        literal.append(c);
        literalChars++;
      }
    }
    regex.append(Pattern.quote(literal.toString()));
    return new PathPattern(
        pattern,
        Pattern.compile(regex.toString()),
        firstSegment(pattern),
        literalChars,
        params,
        wildcards);
  }

  /**
   * @return the literal first segment ({@code "circulation"} for /circulation/...), or null
   */
  String firstSegment() {
    return firstSegment;
  }

  boolean matches(String path) {
    return regex.matcher(path).matches();
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
