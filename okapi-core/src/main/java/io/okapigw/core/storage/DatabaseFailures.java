package io.okapigw.core.storage;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.VertxException;
import io.vertx.sqlclient.DatabaseException;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * What the admin API answers when PostgreSQL fails: 503 naming the database when it cannot be
 * reached or will not serve (no connection, a connection lost, none free in time, the server
 * shutting down or out of connections: SQLSTATE classes 08, 53 and 57P), so that a client and an
 * operator read "the database is away", not "a module failed". Any other failure is left as it is
 * (a 500: a bug or a broken schema).
 */
final class DatabaseFailures {

  private DatabaseFailures() {}

  /**
   * @param where the database ({@code host:port/db})
   * @return {@code future}, its failure mapped
   */
  static <T> Future<T> mapped(Future<T> future, String where) {
    return future.recover(e -> Future.failedFuture(mapped(e, where)));
  }

  /**
   * @return a 503 {@link HttpError} for a database that cannot be reached, else {@code failure}
   */
  static Throwable mapped(Throwable failure, String where) {
    if (failure instanceof HttpError || !unavailable(failure)) {
      return failure;
    }
    return new HttpError(
        503,
        "storage unavailable: PostgreSQL at "
            + where
            + " ("
            + reason(failure)
            + "); the registry is served from memory, changes are refused until it is back");
  }

  /**
   * @return whether the failure says the database cannot be reached or will not serve now
   */
  static boolean unavailable(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof DatabaseException db) {
        String state = db.getSqlState() == null ? "" : db.getSqlState();
        return state.startsWith("08") || state.startsWith("53") || state.startsWith("57P");
      }
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

  private static String reason(Throwable failure) {
    String message = failure.getMessage();
    return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
  }
}
