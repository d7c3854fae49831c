package io.okapigw.core.routing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Handlers indexed by their literal first path segment, so a lookup scans only the handlers that
 * can match; most specific first within each list.
 */
final class HandlerIndex {

  private final Map<String, List<Route>> bySegment = new HashMap<>();
  private final List<Route> anySegment = new ArrayList<>();

  void add(Route route) {
    String segment = route.pattern().firstSegment();
    if (segment == null) {
      anySegment.add(route);
    } else {
      bySegment.computeIfAbsent(segment, s -> new ArrayList<>()).add(route);
    }
  }

  /** Sorts most specific first; call once after the last {@link #add}. */
  HandlerIndex sorted() {
    Comparator<Route> specificFirst = Route::compareSpecificity;
    bySegment.values().forEach(list -> list.sort(specificFirst));
    anySegment.sort(specificFirst);
    return this;
  }

  /**
   * @return the most specific handler serving the request, or null
   */
  boolean isEmpty() {
    return bySegment.isEmpty() && anySegment.isEmpty();
  }

  Route find(String method, String path) {
    return mostSpecific(
        first(bySegment.getOrDefault(firstSegment(path), List.of()), method, path),
        first(anySegment, method, path));
  }

  private static Route first(List<Route> routes, String method, String path) {
    for (Route r : routes) {
      if (r.matches(method, path)) {
        return r;
      }
    }
    return null;
  }

  private static Route mostSpecific(Route a, Route b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return a.compareSpecificity(b) <= 0 ? a : b;
  }

  private static String firstSegment(String path) {
    int end = path.indexOf('/', 1);
    return end < 0 ? path.substring(1) : path.substring(1, end);
  }
}
