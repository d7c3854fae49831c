package io.okapigw.perf.load;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Runs asynchronous steps one after the other. */
final class InTurn {

  private InTurn() {}

  /**
   * @return the results in order; failed with the first step that failed (later ones skipped)
   */
  static <T, R> Future<List<R>> each(List<T> inputs, Function<T, Future<R>> step) {
    Future<List<R>> chain = Future.succeededFuture(new ArrayList<>());
    for (T input : inputs) {
      chain =
          chain.compose(
              done ->
                  step.apply(input)
                      .map(
                          result -> {
                            done.add(result);
                            return done;
                          }));
    }
    return chain;
  }
}
