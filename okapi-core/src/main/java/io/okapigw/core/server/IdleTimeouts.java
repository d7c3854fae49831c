package io.okapigw.core.server;

import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;

/**
 * Lets one admin request outlast {@code server.idle-timeout}: an install, an enable or an upgrade
 * waits, silent, for modules' {@code _tenant} calls (bounded by {@code tenant.init-timeout}) that
 * take minutes when a module loads reference data. While the work runs, the connection's idle timer
 * does not close it ({@link ClientConnection#suspendIdle}). Must be called on the connection's
 * event loop.
 */
public final class IdleTimeouts {

  private IdleTimeouts() {}

  /**
   * @param request the request whose connection may stay silent
   * @param work what the request waits for
   * @return {@code work}
   */
  public static <T> Future<T> suspendWhile(HttpServerRequest request, Future<T> work) {
    if (request.connection() instanceof ConnectionView connection) {
      return connection.suspendIdleWhile(work);
    }
    return work;
  }
}
