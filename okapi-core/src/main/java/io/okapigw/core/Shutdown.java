package io.okapigw.core;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/** Closing a command-line process's Vert.x on Ctrl-C or SIGTERM, without hanging the exit. */
public final class Shutdown {

  private static final Logger log = LoggerFactory.getLogger(Shutdown.class);

  /** How long closing Vert.x (and leaving the cluster) may take after the work is done. */
  public static final Duration CLOSE_LIMIT = Duration.ofSeconds(10);

  private Shutdown() {}

  /**
   * Registers a JVM shutdown hook that closes {@code vertx} (servers, clients, verticles) and gives
   * up after {@code limit}, so a stuck close never keeps the process alive.
   */
  public static void closeOnExit(Vertx vertx, Duration limit) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> await(vertx.close(), limit, "shutdown")));
  }

  /**
   * On SIGTERM ({@code docker stop}, Kubernetes, systemd) or SIGINT (Ctrl-C): runs {@code work} (a
   * gateway's drain), then closes {@code vertx} (leaving the cluster), and exits with status 0, or
   * 1 if that did not finish within {@code limit} plus {@link #CLOSE_LIMIT}. A second signal while
   * it runs is ignored; a JVM shutdown hook would leave with 143 and could not wait for the work.
   *
   * @param vertx what to close after the work
   * @param work what to do first, once
   * @param limit how long the work may take
   */
  public static void drainOnSignal(Vertx vertx, Supplier<Future<Void>> work, Duration limit) {
    AtomicBoolean started = new AtomicBoolean();
    for (String name : List.of("TERM", "INT")) {
      Signal.handle(
          new Signal(name),
          signal -> {
            if (!started.compareAndSet(false, true)) {
              log.info("SIG{} ignored: the node is already draining", name);
              return;
            }
            log.info("SIG{}: draining, then leaving", name);
            Thread exit =
                new Thread(() -> exit(vertx, work, limit.plus(CLOSE_LIMIT)), "okapigw-shutdown");
            exit.start();
          });
    }
  }

  private static void exit(Vertx vertx, Supplier<Future<Void>> work, Duration limit) {
    boolean done =
        await(
            Future.succeededFuture().compose(v -> work.get()).eventually(vertx::close),
            limit,
            "drain");
    System.exit(done ? 0 : 1);
  }

  private static boolean await(Future<?> future, Duration limit, String what) {
    try {
      future.toCompletionStage().toCompletableFuture().get(limit.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception e) {
      log.warn("{} did not finish within {}: {}", what, limit, e.toString());
      return false;
    }
  }
}
