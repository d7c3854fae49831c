package io.okapigw.core;

import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Closing a command-line process's Vert.x on Ctrl-C or SIGTERM, without hanging the exit. */
public final class Shutdown {

  private static final Logger log = LoggerFactory.getLogger(Shutdown.class);

  private Shutdown() {}

  /**
   * Registers a JVM shutdown hook that closes {@code vertx} (servers, clients, verticles) and gives
   * up after {@code limit}, so a stuck close never keeps the process alive.
   */
  public static void closeOnExit(Vertx vertx, Duration limit) {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    vertx
                        .close()
                        .toCompletionStage()
                        .toCompletableFuture()
                        .get(limit.toMillis(), TimeUnit.MILLISECONDS);
                  } catch (Exception e) {
                    log.warn("shutdown did not finish within {}: {}", limit, e.toString());
                  }
                }));
  }
}
