package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Normal traffic from a client of its own while something hostile goes on: on a thread of its own,
 * one request after another, each on a new connection (so none races the gateway's close of an idle
 * one), in turn an open {@code GET /s/ping}, a {@code GET /secure/x} with alice's token (through
 * the auth filter), each of which must answer 200, and a {@code GET /secure/x} without a token
 * (claiming alice's user id every other time), which must answer 401 whatever other clients sent
 * before: a request without a token is decided as one. Each within {@link #BOUND}.
 */
final class Probe implements AutoCloseable {

  static final Duration BOUND = HostileGateway.ANSWER_BOUND;

  private final HostileGateway gw;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicInteger count = new AtomicInteger();
  private final AtomicLong slowestMillis = new AtomicLong();
  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  private final CompletableFuture<Void> done;

  private Probe(HostileGateway gw) {
    this.gw = gw;
    done = CompletableFuture.runAsync(this::run);
  }

  /** Starts probing. */
  static Probe start(HostileGateway gw) {
    return new Probe(gw);
  }

  private void run() {
    while (running.get()) {
      int i = count.incrementAndGet();
      Kind kind = Kind.values()[i % Kind.values().length];
      String header =
          switch (kind) {
            case OPEN -> "";
            case WITH_TOKEN -> "X-Okapi-Token: " + gw.aliceToken() + "\r\n";
            case TOKENLESS -> i % 2 == 0 ? "" : "X-Okapi-User-Id: " + aliceId() + "\r\n";
          };
      Outcome outcome = Outcome.of(() -> get(kind.path, header));
      slowestMillis.accumulateAndGet(outcome.millis(), Math::max);
      if (outcome.status() != kind.status && failures.size() < 20) {
        failures.add("request " + i + " GET " + kind.path + " " + kind + ": " + outcome);
      }
      pause(20);
    }
  }

  /** The probe's requests, in turn, and the status each must get. */
  private enum Kind {
    OPEN("/s/ping", 200),
    WITH_TOKEN("/secure/x", 200),
    TOKENLESS("/secure/x", 401);

    final String path;
    final int status;

    Kind(String path, int status) {
      this.path = path;
      this.status = status;
    }
  }

  private String aliceId() {
    String payload = gw.aliceToken().split("\\.")[1];
    return new JsonObject(
            new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8))
        .getString("user_id");
  }

  private RawResponse get(String path, String header) throws IOException {
    try (RawConnection c = RawConnection.open(gw.port())) {
      return c.send(
              "GET "
                  + path
                  + " HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n"
                  + header
                  + "Connection: close\r\n\r\n")
          .response("GET", BOUND);
    }
  }

  private static void pause(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * @return failures so far (at most 20), each with its request number
   */
  List<String> failures() {
    return List.copyOf(failures);
  }

  /**
   * @return requests sent so far
   */
  int count() {
    return count.get();
  }

  long slowestMillis() {
    return slowestMillis.get();
  }

  /**
   * Stops probing, then asserts that at least {@code min} requests were sent and every one answered
   * as it must within {@link #BOUND}.
   */
  void stopAndAssert(int min) {
    close();
    assertThat(failures()).as("normal requests that failed, of %d", count()).isEmpty();
    assertThat(count()).as("normal requests sent").isGreaterThanOrEqualTo(min);
  }

  @Override
  public void close() {
    running.set(false);
    done.join();
  }
}
