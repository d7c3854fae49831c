package io.okapigw.it.hostile;

import static io.okapigw.it.hostile.HostileGateway.HEADER_TIMEOUT;
import static io.okapigw.it.hostile.HostileGateway.IDLE_TIMEOUT;
import static io.okapigw.it.hostile.HostileGateway.PROXY_IDLE_TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.it.hostile.Backend.Held;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Slowloris against the gateway JVM ({@code server.header-timeout} 2 s, {@code server.idle-timeout}
 * 12 s, {@code proxy.idle-timeout} 6 s): connections that send nothing, a head bit by bit, or stop
 * a body midway are closed (and the module connection of a stopped body with them), while normal
 * traffic goes on; an upload that is slow but moving, and a module slower than the header timeout,
 * are not cut.
 */
@ExtendWith(HostileGateway.Resolver.class)
class SlowClientsTest {

  /**
   * Slack for the gateway's timers on a loaded machine, where one fires seconds late: a close
   * within a timeout and its slack is that timeout's, as the next one is later still ({@link
   * HostileGateway#IDLE_TIMEOUT} after {@link HostileGateway#HEADER_TIMEOUT} and its slack).
   */
  private static final Duration SLACK = Duration.ofSeconds(5);

  private static final String DIKU = "Host: x\r\nX-Okapi-Tenant: diku\r\n";

  private static HostileGateway gw;

  @BeforeAll
  static void start(HostileGateway gateway) {
    gw = gateway;
  }

  private static RawConnection connect() throws IOException {
    return RawConnection.open(gw.port());
  }

  /** Asserts the connection is closed by the timeout: not at once, not much after it. */
  private static void closedAfter(RawConnection c, Duration timeout, Duration sinceStart)
      throws IOException {
    Duration closedAfter = c.closedWithin(timeout.plus(SLACK)).plus(sinceStart);
    assertThat(closedAfter)
        .as("closed after")
        .isGreaterThan(timeout.dividedBy(2))
        .isLessThan(timeout.plus(SLACK));
  }

  @Test
  void connectionSendingNothing_closedAfterHeaderTimeout() throws IOException {
    try (RawConnection c = connect()) {
      closedAfter(c, HEADER_TIMEOUT, Duration.ZERO);
    }
  }

  @Test
  void headNeverCompleted_closedAfterHeaderTimeout() throws IOException {
    try (RawConnection c = connect()) {
      c.send("GET /s/ping HTTP/1.1\r\nHost: x\r\n");
      closedAfter(c, HEADER_TIMEOUT, Duration.ZERO);
    }
  }

  /** A byte every 200 ms keeps the connection from idling, but the head is never complete. */
  @Test
  void headSentByteByByte_closedAfterHeaderTimeoutThoughNeverIdle() throws Exception {
    try (RawConnection c = connect()) {
      long start = System.nanoTime();
      CompletableFuture<Void> drip =
          CompletableFuture.runAsync(
              () -> {
                byte[] head =
                    ("GET /s/ping HTTP/1.1\r\n" + DIKU + "X-Pad: " + "a".repeat(200)).getBytes();
                try {
                  for (byte b : head) {
                    c.send(new byte[] {b});
                    TimeUnit.MILLISECONDS.sleep(200);
                  }
                } catch (IOException | InterruptedException closed) {
                  // the gateway closed the connection: the point
                }
              });
      assertThat(c.readUntilClosed(HEADER_TIMEOUT.plus(SLACK))).isEmpty();
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isLessThan(HEADER_TIMEOUT.plus(SLACK));
      c.close();
      drip.get(HostileGateway.ANSWER_BOUND.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  @Test
  void keepAliveConnection_servedThenClosedAfterHeaderTimeoutOfSilence() throws IOException {
    try (RawConnection c = connect()) {
      c.send("GET /s/ping HTTP/1.1\r\n" + DIKU + "\r\n");
      assertThat(c.response().text()).isEqualTo("pong");
      closedAfter(c, HEADER_TIMEOUT, Duration.ZERO);
    }
  }

  /**
   * Closed, and the module's connection with it, by the first timeout to fire: proxy.idle-timeout
   * on the module's side (the module waits for the rest of the body), else server.idle-timeout.
   */
  @Test
  void bodyStoppedMidway_clientAndModuleConnectionsClosed() throws Exception {
    try (RawConnection c = connect()) {
      c.send("POST /s/hold HTTP/1.1\r\n" + DIKU + "Content-Length: 2048\r\n\r\n").zeros(1024);
      Held held = gw.backend.nextHeld();
      long start = System.nanoTime();
      c.readUntilClosed(IDLE_TIMEOUT.plus(SLACK));
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("closed after")
          .isGreaterThan(PROXY_IDLE_TIMEOUT.dividedBy(2))
          .isLessThan(IDLE_TIMEOUT.plus(SLACK));
      held.closed().get(SLACK.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /**
   * The module waits for the rest of the body, so proxy.idle-timeout fires first: the client that
   * stopped is answered 408 (its failure, not the module's: no 504) and its connection closed.
   */
  @Test
  void bodyStoppedMidway_408ThenClosed_not5xx() throws Exception {
    try (RawConnection c = connect()) {
      c.send("POST /s/hold HTTP/1.1\r\n" + DIKU + "Content-Length: 2048\r\n\r\n").zeros(1024);
      gw.backend.nextHeld();
      RawResponse response = c.response("POST", IDLE_TIMEOUT.plus(SLACK));
      assertThat(response.status()).as(response.toString()).isEqualTo(408);
      assertThat(response.closes()).as("Connection: close in " + response).isTrue();
      assertThat(c.readUntilClosed(SLACK)).isEmpty();
    }
  }

  /**
   * Stopped uploads hold a module connection each until the idle timeout: enough of them fill every
   * pool; once they are closed, the pools serve again.
   */
  @Test
  void stoppedUploadsFillingEveryPool_closedAfterIdleTimeout_thenPoolsServe() throws Exception {
    gw.backend.drain();
    int n = 2 * HostileGateway.MAX_CONNECTIONS;
    List<RawConnection> stopped = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      stopped.add(
          connect()
              .send("POST /s/hold HTTP/1.1\r\n" + DIKU + "Content-Length: 2048" + "\r\n\r\n")
              .zeros(1024));
    }
    List<Held> held = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      held.add(gw.backend.nextHeld());
    }
    for (RawConnection c : stopped) {
      c.readUntilClosed(IDLE_TIMEOUT.plus(SLACK));
      c.close();
    }
    for (Held h : held) {
      h.closed().get(SLACK.toMillis(), TimeUnit.MILLISECONDS);
    }
    assertThat(
            Outcome.concurrently(
                n + 4,
                HostileGateway.ANSWER_BOUND,
                () -> {
                  try (RawConnection c = connect()) {
                    return c.send("GET /s/ping HTTP/1.1\r\n" + DIKU + "\r\n").response();
                  }
                }))
        .allSatisfy(o -> assertThat(o.status()).as(o.toString()).isEqualTo(200));
  }

  @Test
  void uploadSlowerThanHeaderTimeoutButMoving_answered() throws Exception {
    assertThat(movingUpload(HEADER_TIMEOUT.plusMillis(500)).text()).isEqualTo("got 3000 bytes");
  }

  /**
   * proxy.idle-timeout runs from the last bytes the client sent, not from the head: an upload that
   * keeps moving (a piece every 250 ms) but lasts longer than the timeout is answered.
   */
  @Test
  void uploadLongerThanProxyIdleTimeoutButMoving_answered() throws Exception {
    RawResponse response = movingUpload(PROXY_IDLE_TIMEOUT.plusSeconds(1));
    assertThat(response.status()).as(response.toString()).isEqualTo(200);
    assertThat(response.text()).isEqualTo("got 3000 bytes");
  }

  /** Uploads 3000 bytes in pieces spread evenly over {@code duration}, never idle for long. */
  private static RawResponse movingUpload(Duration duration) throws Exception {
    try (RawConnection c = connect()) {
      c.send("POST /s/echo HTTP/1.1\r\n" + DIKU + "Content-Length: 3000\r\n\r\n");
      int pieces = (int) (duration.toMillis() / 250) + 1;
      for (int i = 0; i < pieces; i++) {
        int size = 3000 / pieces + (i < 3000 % pieces ? 1 : 0);
        c.zeros(size);
        if (i < pieces - 1) {
          TimeUnit.MILLISECONDS.sleep(250);
        }
      }
      return c.response();
    }
  }

  /** 200 connections that send nothing or half a head while normal traffic goes on. */
  @Test
  void manySlowClients_normalTrafficUnaffected_allClosedByHeaderTimeout() throws Exception {
    List<RawConnection> slow = new ArrayList<>();
    try (Probe probe = Probe.start(gw)) {
      for (int i = 0; i < 200; i++) {
        RawConnection c = connect();
        if (i % 2 == 1) {
          c.send("POST /s/echo HTTP/1.1\r\n" + DIKU.substring(0, i % DIKU.length()));
        }
        slow.add(c);
      }
      for (RawConnection c : slow) {
        c.closedWithin(HEADER_TIMEOUT.plus(SLACK));
        c.close();
      }
      probe.stopAndAssert(3); // one of each kind at least, however slow the machine
    } finally {
      slow.forEach(RawConnection::close);
    }
  }
}
