package io.okapigw.core.routing;

import io.okapigw.core.registry.RoutingEntry;

/** A handler or filter of one enabled module, with its compiled pattern. */
record Route(String moduleId, RoutingEntry entry, PathPattern pattern) {

  static Route of(String moduleId, RoutingEntry entry) {
    return new Route(moduleId, entry, PathPattern.compile(entry.pathPattern()));
  }

  boolean matches(String method, String path) {
    return entry.servesMethod(method) && pattern.matches(path);
  }

  /** Most specific first; an explicit method beats {@code *}; ties keep enable order. */
  int compareSpecificity(Route other) {
    int byPattern = pattern.compareSpecificity(other.pattern);
    if (byPattern != 0) {
      return byPattern;
    }
    return Boolean.compare(entry.methods().contains("*"), other.entry.methods().contains("*"));
  }
}
