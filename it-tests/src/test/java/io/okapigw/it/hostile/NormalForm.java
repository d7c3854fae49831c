package io.okapigw.it.hostile;

/**
 * The fuzz run's own reading of "a path in normal form", written apart from the gateway's ({@code
 * RequestPaths}) so that a module receiving anything else shows a gateway bug rather than agreeing
 * with it: a path starting with {@code /}, no dot segments, no {@code ;} path parameters, no empty
 * segment but a trailing one, no backslash, only well-formed escapes, none of an unreserved
 * character, a slash or a backslash; and in the whole target (path and query) only visible ASCII
 * characters and no {@code #}.
 */
final class NormalForm {

  private static final String UNRESERVED =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

  private NormalForm() {}

  /**
   * @return null if {@code path} is in normal form, else what is wrong with it
   */
  static String problem(String path) {
    if (!path.startsWith("/")) {
      return "not starting with /";
    }
    if (path.indexOf('\\') >= 0) {
      return "a backslash";
    }
    if (path.indexOf(';') >= 0) {
      return "a path parameter (;)";
    }
    String[] segments = path.substring(1).split("/", -1);
    for (int i = 0; i < segments.length; i++) {
      String segment = segments[i];
      if (segment.isEmpty() && i < segments.length - 1) {
        return "an empty segment";
      }
      String name = segment.split(";", 2)[0];
      if (name.equals(".") || name.equals("..")) {
        return "a dot segment";
      }
      String escape = escapeProblem(segment);
      if (escape != null) {
        return escape;
      }
    }
    return null;
  }

  /**
   * @return null if the whole target {@code uri} (path and query) holds only visible ASCII
   *     characters and no {@code #}, else what it holds
   */
  static String targetProblem(String uri) {
    for (int i = 0; i < uri.length(); i++) {
      char c = uri.charAt(i);
      if (c <= ' ' || c >= 0x7f) {
        return "a control character, space or byte beyond ASCII";
      }
      if (c == '#') {
        return "a fragment (#)";
      }
    }
    return null;
  }

  private static String escapeProblem(String segment) {
    for (int i = segment.indexOf('%'); i >= 0; i = segment.indexOf('%', i + 1)) {
      if (i + 2 >= segment.length()) {
        return "a cut escape";
      }
      int high = Character.digit(segment.charAt(i + 1), 16);
      int low = Character.digit(segment.charAt(i + 2), 16);
      if (high < 0 || low < 0) {
        return "a malformed escape";
      }
      int value = high * 16 + low;
      if (value == '/' || value == '\\') {
        return "an encoded slash or backslash";
      }
      if (UNRESERVED.indexOf(value) >= 0) {
        return "an encoded unreserved character";
      }
    }
    return null;
  }
}
