package io.okapigw.folio.desk;

import io.okapigw.folio.module.ModuleError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Calls made concurrently, as FOLIO makes several lookups at once. */
final class Parallel {

  private Parallel() {}

  /**
   * Waits for every future, so that the outcome never depends on which call answered first.
   *
   * @return success if all succeeded; else the first failure that is not a 422, or one 422 listing
   *     every 422's errors (an unknown user and an unknown item are both reported)
   */
  static Future<Void> all(List<Future<?>> futures) {
    return Future.join(futures)
        .transform(
            done ->
                done.succeeded()
                    ? Future.succeededFuture()
                    : Future.failedFuture(combine(futures)));
  }

  /**
   * @return a future completing, after {@code sink} took the result, when {@code future} does
   */
  static <T> Future<Void> into(Future<T> future, Consumer<T> sink) {
    return future.map(
        value -> {
          sink.accept(value);
          return null;
        });
  }

  private static Throwable combine(List<Future<?>> futures) {
    List<Throwable> failures = futures.stream().filter(Future::failed).map(Future::cause).toList();
    List<JsonObject> errors = new ArrayList<>();
    for (Throwable failure : failures) {
      if (!(failure instanceof ModuleError error) || error.status() != 422) {
        return failure;
      }
      errors.addAll(error.errors());
    }
    return new ModuleError(422, errors);
  }
}
