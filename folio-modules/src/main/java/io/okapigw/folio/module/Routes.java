package io.okapigw.folio.module;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The endpoints a simulated module implements, keyed like its descriptor's handlers: {@code
 * routes.on("GET", "/users/{id}", this::user)}.
 */
public final class Routes {

  private final Map<String, Endpoint> endpoints = new LinkedHashMap<>();

  /**
   * @param method HTTP method as in the descriptor
   * @param pathPattern path pattern exactly as in the descriptor
   * @return this
   * @throws IllegalArgumentException if the method and pattern already have an endpoint
   */
  public Routes on(String method, String pathPattern, Endpoint endpoint) {
    String key = key(method, pathPattern);
    if (endpoints.putIfAbsent(key, endpoint) != null) {
      throw new IllegalArgumentException("two endpoints for " + key);
    }
    return this;
  }

  /** Adds every endpoint of {@code other}. */
  public Routes addAll(Routes other) {
    other.endpoints.forEach(
        (key, endpoint) -> {
          if (endpoints.putIfAbsent(key, endpoint) != null) {
            throw new IllegalArgumentException("two endpoints for " + key);
          }
        });
    return this;
  }

  /**
   * @return the key of a handler: {@code "GET /users/{id}"}
   */
  public static String key(String method, String pathPattern) {
    return method + " " + pathPattern;
  }

  Map<String, Endpoint> endpoints() {
    return Map.copyOf(endpoints);
  }
}
