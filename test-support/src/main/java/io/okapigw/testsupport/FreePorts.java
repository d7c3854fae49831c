package io.okapigw.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for servers a test starts later (Hazelcast members listed to each other in advance,
 * processes told their port): free at the time of asking and below Linux's ephemeral range
 * (32768-60999), so no port the kernel hands out meanwhile (a listener on port 0, an outgoing
 * connection) can take it before the server binds it.
 */
public final class FreePorts {

  static final int FIRST_PORT = 20_000;
  static final int LAST_PORT = 32_767;
  private static final int TRIES = 200;

  private FreePorts() {}

  /**
   * @return a free port in {@value #FIRST_PORT} to {@value #LAST_PORT}
   * @throws UncheckedIOException if none of {@value #TRIES} random ports there was free
   */
  public static int belowEphemeralRange() {
    for (int i = 0; i < TRIES; i++) {
      int port = ThreadLocalRandom.current().nextInt(FIRST_PORT, LAST_PORT + 1);
      try (ServerSocket socket = new ServerSocket(port)) {
        return socket.getLocalPort();
      } catch (IOException taken) {
        // try another
      }
    }
    throw new UncheckedIOException(
        new IOException(
            "no free port among " + TRIES + " tries in " + FIRST_PORT + "-" + LAST_PORT));
  }
}
