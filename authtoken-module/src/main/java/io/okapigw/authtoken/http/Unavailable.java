package io.okapigw.authtoken.http;

import io.vertx.core.VertxException;
import io.vertx.sqlclient.DatabaseException;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * Failures that mean "not now" rather than "wrong": what this module needs (its PostgreSQL
 * database, the gateway for user lookups) cannot be reached or will not serve. {@link
 * ApiException#from} answers them 503 with {@code Retry-After}, at once: a login while the database
 * is away fails fast instead of waiting, and works again as soon as it is back.
 */
final class Unavailable {

  private Unavailable() {}

  /**
   * @return whether PostgreSQL refused to serve: connection failures (SQLSTATE class 08), the
   *     server shutting down or restarting (57P), out of connections or resources (53)
   */
  static boolean database(Throwable failure) {
    for (Throwable t = failure; t != null; t = next(t)) {
      if (t instanceof DatabaseException db) {
        String state = db.getSqlState() == null ? "" : db.getSqlState();
        return state.startsWith("08") || state.startsWith("57P") || state.startsWith("53");
      }
    }
    return false;
  }

  /**
   * @return whether a connection could not be made, was lost, or timed out (the pool's wait for a
   *     connection included)
   */
  static boolean connection(Throwable failure) {
    for (Throwable t = failure; t != null; t = next(t)) {
      if (t instanceof IOException || t instanceof TimeoutException) {
        return true;
      }
      String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (t instanceof VertxException
          && (message.contains("closed") || message.contains("timeout"))) {
        return true;
      }
    }
    return false;
  }

  private static Throwable next(Throwable t) {
    return t.getCause() == t ? null : t.getCause();
  }
}
