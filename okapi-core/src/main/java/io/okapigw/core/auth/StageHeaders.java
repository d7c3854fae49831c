package io.okapigw.core.auth;

import io.okapigw.core.routing.Stage;
import io.vertx.core.MultiMap;

/** Writes the headers every module call of one request carries, for one stage of it. */
@FunctionalInterface
public interface StageHeaders {

  /**
   * Writes the client's forwardable headers and Okapi's request headers (tenant, URL, request id,
   * {@code X-Okapi-request-*}, {@code X-Okapi-Match-Path-Pattern} of {@code stage}); no token, user
   * id, permissions, module id or gateway result header of the client's.
   */
  void writeTo(MultiMap headers, Stage stage);
}
