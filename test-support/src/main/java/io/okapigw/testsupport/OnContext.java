package io.okapigw.testsupport;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.function.Supplier;

/**
 * Makes a test's Vert.x HTTP client calls on a Vert.x context, never on the test's own thread.
 * Started from a thread that is not Vert.x's, Vert.x 5's client now and then lost a request (issue
 * 33: the first request of a round in InstanceFaultsTest never left the client, the gateway's
 * socket got no byte of it, and its future never completed: about 1 run in 5 beside two CPU-bound
 * processes); and a response can end before a handler the test attaches later.
 */
public final class OnContext {

  private OnContext() {}

  /**
   * @param calls starts the calls; runs on a context of {@code vertx}
   * @return completes as the calls' future does
   */
  public static <T> Future<T> run(Vertx vertx, Supplier<Future<T>> calls) {
    Promise<T> done = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> calls.get().onComplete(done));
    return done.future();
  }
}
