package io.okapigw.core.deployment;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.routing.Endpoint;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a started module to answer HTTP on its port, as Okapi's {@code TcpPortWaiting} does: a
 * {@code GET /} (any answer will do) tried again after 200 ms, 400 ms, 600 ms, ... up to the
 * module's {@code waitIterations} tries (60 by default: about six minutes in all), given up at once
 * when the module is known to have stopped.
 */
final class Readiness {

  /** The step the waits between tries grow by (Okapi's). */
  static final long STEP_MILLIS = 200;

  /** How long one try may take to connect and be answered. */
  private static final Duration TRY_TIMEOUT = Duration.ofSeconds(2);

  private final Vertx vertx;
  private final ModuleClient modules;

  Readiness(Vertx vertx, ModuleClient modules) {
    this.vertx = vertx;
    this.modules = modules;
  }

  /**
   * @param id the module, for messages
   * @param iterations how many tries after the first
   * @param running whether the module still runs (false: give up)
   * @return succeeds once it answered; fails with Okapi's message otherwise
   */
  Future<Void> await(String id, String host, int port, int iterations, BooleanSupplier running) {
    return attempt(id, Endpoint.parse("http://" + host + ":" + port), 0, iterations, running);
  }

  private Future<Void> attempt(
      String id, Endpoint endpoint, int count, int iterations, BooleanSupplier running) {
    return modules
        .probe(id, endpoint, TRY_TIMEOUT)
        .recover(
            e -> {
              if (count < iterations && running.getAsBoolean()) {
                Promise<Void> next = Promise.promise();
                vertx.setTimer(
                    (count + 1) * STEP_MILLIS,
                    t -> attempt(id, endpoint, count + 1, iterations, running).onComplete(next));
                return next.future();
              }
              String why = running.getAsBoolean() ? reason(e) : "the module exited";
              return Future.failedFuture(
                  HttpError.badRequest(
                      "Deployment failed for service "
                          + id
                          + ". Could not connect to "
                          + endpoint.host()
                          + ":"
                          + endpoint.port()
                          + ": "
                          + why));
            });
  }

  private static String reason(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
