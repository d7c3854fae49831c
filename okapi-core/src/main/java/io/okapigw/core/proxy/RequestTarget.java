package io.okapigw.core.proxy;

import io.vertx.core.http.HttpServerRequest;

/**
 * The path and query a request is routed by: the client's, or what {@code /_/invoke/tenant/...}
 * stands for.
 *
 * @param path the path, without query
 * @param query the query without {@code ?}, or null
 */
record RequestTarget(String path, String query) {

  static RequestTarget of(HttpServerRequest in) {
    return new RequestTarget(in.path(), in.query());
  }

  /**
   * @return path and query as sent on to a module
   */
  String uri() {
    return withPath(path);
  }

  /**
   * @return {@code otherPath} with this target's query
   */
  String withPath(String otherPath) {
    return query == null ? otherPath : otherPath + "?" + query;
  }
}
