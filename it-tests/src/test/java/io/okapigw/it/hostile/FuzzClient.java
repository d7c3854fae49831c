package io.okapigw.it.hostile;

import io.okapigw.it.hostile.FuzzCase.Ending;
import io.okapigw.it.hostile.RawConnection.MalformedResponse;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Sends a {@link FuzzCase} on a connection of its own and reads what comes back, every wait bounded
 * by {@link #BOUND}: the longest the gateway may leave a connection without an answer or a close
 * (its {@code server.idle-timeout} closes any connection silent that long, with slack). The bytes
 * are written from another thread, so a gateway that answers early and stops reading cannot block
 * the test.
 */
final class FuzzClient {

  static final Duration BOUND = HostileGateway.IDLE_TIMEOUT.plusSeconds(3);

  private final ExecutorService writers;

  FuzzClient(ExecutorService writers) {
    this.writers = writers;
  }

  /** What came back. */
  record Answer(List<RawResponse> responses, boolean closed, String failure, long millis) {}

  /**
   * @return the responses read: as many as requests unless the connection closed first; {@code
   *     failure} says why reading stopped otherwise (no answer nor close in time, or bytes that are
   *     not a response)
   */
  Answer run(FuzzCase c, int port) throws IOException {
    long start = System.nanoTime();
    byte[] bytes = c.bytes();
    boolean midway = c.ending() == Ending.RESET_MIDWAY || c.ending() == Ending.FIN_MIDWAY;
    byte[] sent = midway ? Arrays.copyOf(bytes, c.cut()) : bytes;
    try (RawConnection conn = RawConnection.open(port)) {
      Future<?> writing = writers.submit(() -> write(conn, sent, c));
      List<RawResponse> responses = new ArrayList<>();
      boolean closed = false;
      String failure = null;
      if (c.ending() == Ending.RESET_MIDWAY) {
        waitQuietly(writing);
      } else if (c.ending() == Ending.RESET_AT_ANSWER) {
        try {
          closed = !conn.awaitByte(BOUND);
        } catch (SocketTimeoutException e) {
          failure = "neither answered nor closed within " + BOUND;
        }
      } else {
        long deadline = System.nanoTime() + BOUND.toNanos();
        int expected = c.ending() == Ending.FIN_MIDWAY ? Integer.MAX_VALUE : c.requests().size();
        for (int i = 0; i < expected && failure == null && !closed; i++) {
          String method = i < c.requests().size() && c.requests().get(i).isHead() ? "HEAD" : "GET";
          try {
            RawResponse response =
                conn.response(method, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            responses.add(response);
            if (response.closes()) {
              // the last response on the connection; what follows (a body an invalid head's
              // answer has though the head said HEAD) is not a response
              conn.readUntilClosed(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
              closed = true;
            }
          } catch (SocketTimeoutException e) {
            failure = "neither answered nor closed within " + BOUND;
          } catch (MalformedResponse e) {
            failure = e.getMessage();
          } catch (IOException e) {
            closed = true;
            if (!"connection closed, no response".equals(e.getMessage())
                && c.ending() != Ending.FIN_MIDWAY) {
              failure = "a response cut short: " + e;
            }
          }
        }
      }
      conn.reset();
      waitQuietly(writing);
      return new Answer(responses, closed, failure, (System.nanoTime() - start) / 1_000_000);
    }
  }

  private static void write(RawConnection conn, byte[] bytes, FuzzCase c) {
    try {
      if (c.piece() > 0) {
        for (int off = 0; off < bytes.length; off += c.piece()) {
          conn.send(Arrays.copyOfRange(bytes, off, Math.min(bytes.length, off + c.piece())));
        }
      } else {
        conn.send(bytes);
      }
      if (c.ending() == Ending.RESET_MIDWAY) {
        conn.reset();
      } else if (c.ending() == Ending.FIN_MIDWAY) {
        conn.shutdownOutput();
      }
    } catch (IOException closedByTheGateway) {
      // it answered (or refused) before taking everything: what it sent is read all the same
    }
  }

  private static void waitQuietly(Future<?> writing) {
    try {
      writing.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      // the writer ends on its own once the connection is closed
    }
  }
}
