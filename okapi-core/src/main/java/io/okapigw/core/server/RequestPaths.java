package io.okapigw.core.server;

/**
 * Which request paths the gateway routes: only those in normal form, so that the path matched,
 * authorized and forwarded is the path a module (or the admin API's router) serves, whatever it
 * decodes or normalizes. A path another server would read as a different path is refused rather
 * than rewritten: nothing downstream then sees anything but the client's own path.
 *
 * <p>Refused: a target that is not a path ({@code *}, {@code host:port}); dot segments ({@code .},
 * {@code ..}); {@code ;} path parameters, which servlet containers (Spring MVC, JAX-RS) drop when
 * they match a route, so {@code /items/secret;x}, authorized as {@code /items/{id}}, would be
 * served as {@code /items/secret} (an id holding {@code ;} is sent as {@code %3B}); empty segments
 * ({@code //}; a trailing {@code /} is kept); percent-encoded unreserved characters ({@code %2e},
 * {@code %41}: RFC 3986 says they equal the character, so a module may decode {@code /x/%2e%2e/y}
 * into a dot segment, or {@code %65cho} into a segment a pattern did not see); encoded slashes and
 * backslashes ({@code %2F}, {@code %5C}) and backslashes, which some servers take for {@code /};
 * malformed percent-encoding. The admin API's own paths ({@code /_/...} except {@code /_/invoke/},
 * which reaches modules) may carry an encoded slash inside a segment: nothing but the gateway's
 * router reads them, and Okapi's {@code /_/discovery/nodes/{nodeId}} takes a node's URL there.
 *
 * <p>One pass over the path, no allocation for a path in normal form.
 */
public final class RequestPaths {

  private RequestPaths() {}

  /**
   * @param path the request's path, without query
   * @return null if {@code path} is in normal form, else why it is not
   */
  public static String problem(String path) {
    int n = path.length();
    if (n == 0 || path.charAt(0) != '/') {
      return "the request target must be a path starting with '/'";
    }
    boolean adminApi = path.startsWith("/_/") && !path.startsWith("/_/invoke/");
    int segmentStart = 1;
    int dots = 0;
    boolean onlyDots = true;
    for (int i = 1; i <= n; i++) {
      char c = i < n ? path.charAt(i) : '/';
      if (c == '/') {
        String problem = segmentProblem(i == segmentStart, i == n, onlyDots ? dots : 0);
        if (problem != null) {
          return problem;
        }
        segmentStart = i + 1;
        dots = 0;
        onlyDots = true;
      } else if (c == '%') {
        String problem = escapeProblem(path, i, adminApi);
        if (problem != null) {
          return problem;
        }
        onlyDots = false;
        i += 2;
      } else if (c == '\\') {
        return "a backslash in the path";
      } else if (c == ';') {
        return "a ';' path parameter in the path (servlet containers match routes without it):"
            + " send ';' in an id as %3B";
      } else if (c == '.') {
        dots++;
      } else {
        onlyDots = false;
      }
    }
    return null;
  }

  private static String segmentProblem(boolean empty, boolean last, int dots) {
    if (empty && !last) {
      return "an empty segment (//) in the path";
    }
    if (dots == 1 || dots == 2) {
      return "a dot segment (" + ".".repeat(dots) + ") in the path";
    }
    return null;
  }

  private static String escapeProblem(String path, int at, boolean adminApi) {
    int hi = at + 1 < path.length() ? hex(path.charAt(at + 1)) : -1;
    int lo = at + 2 < path.length() ? hex(path.charAt(at + 2)) : -1;
    if (hi < 0 || lo < 0) {
      return "malformed percent-encoding in the path";
    }
    char decoded = (char) (hi * 16 + lo);
    if (decoded == '/' && !adminApi || decoded == '\\') {
      return "an encoded slash or backslash (" + path.substring(at, at + 3) + ") in the path";
    }
    if (isUnreserved(decoded)) {
      return "a percent-encoded unreserved character ("
          + path.substring(at, at + 3)
          + " for '"
          + decoded
          + "') in the path: send it as it is";
    }
    return null;
  }

  private static int hex(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    char lower = (char) (c | 0x20);
    return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
  }

  private static boolean isUnreserved(char c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~';
  }
}
