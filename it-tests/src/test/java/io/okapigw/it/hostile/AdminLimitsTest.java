package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.okapigw.it.AdminCalls;
import io.okapigw.testsupport.Descriptors;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an admin request can cost the gateway JVM: a 10 MB module descriptor is refused with 413
 * naming the 1 MiB limit, with or without a Content-Length, and unrelated requests (proxied, and
 * admin on the same listener) are answered while it is in flight; one just under the limit is
 * registered, the same requests answered meanwhile; a malformed {@code pathPattern} is refused
 * (400) and nothing registered; a timer cannot be made to fire more often than every second; a
 * filter pattern cannot make matching a path slow. Normal traffic from a {@link Probe} runs
 * throughout.
 */
@ExtendWith(HostileGateway.Resolver.class)
class AdminLimitsTest {

  private static final long LIMIT = 1024 * 1024;
  private static final String LIMIT_TEXT = Long.toString(LIMIT);

  private static HostileGateway gw;

  @BeforeAll
  static void start(HostileGateway gateway) {
    gw = gateway;
  }

  /**
   * Chunked, the gateway cannot know the size before a mebibyte has come: half of that is sent,
   * then unrelated requests (proxied, and admin on the same listener) must be answered while the
   * big one waits unanswered; then the rest, answered 413. With a Content-Length, the 413 comes at
   * once; unrelated requests must be answered while the rest of the body is still to come (the
   * gateway reads and drops it).
   */
  @ParameterizedTest(name = "chunked={0}")
  @ValueSource(booleans = {false, true})
  void tenMegabyteDescriptor_413NamingTheLimit_unrelatedRequestsAnsweredMeanwhile(boolean chunked)
      throws Exception {
    byte[] descriptor = descriptor("mod-huge-1.0.0", 110_000);
    assertThat(descriptor.length).isGreaterThan(10_000_000);
    int first = 512 * 1024;

    RawResponse answer;
    try (Probe probe = Probe.start(gw);
        RawConnection c = RawConnection.open(gw.adminPort())) {
      c.send(head(descriptor.length, chunked));
      write(c, descriptor, 0, first, chunked, false);
      if (chunked) {
        unrelatedRequestsAnswered();
        assertThat(c.available()).as("bytes answered to half a mebibyte").isZero();
        answer = finish(c, descriptor, first, chunked);
      } else {
        answer = c.response("POST", HostileGateway.ANSWER_BOUND);
        unrelatedRequestsAnswered();
        write(c, descriptor, first, descriptor.length, false, true);
      }
      probe.stopAndAssert(1);
    }

    assertThat(answer.status()).as(answer.toString()).isEqualTo(413);
    assertThat(answer.text()).contains(LIMIT_TEXT);
    gw.admin().get("/_/proxy/modules/mod-huge-1.0.0").then().statusCode(404);
  }

  /**
   * All but the last kilobyte of a descriptor just under the limit, unrelated requests answered
   * while it waits; then the last kilobyte, and at once a proxied request, answered while the
   * gateway parses and registers the descriptor (or after: either way within {@link
   * HostileGateway#ANSWER_BOUND}).
   */
  @Test
  void descriptorJustUnderTheLimit_registered_unrelatedRequestsAnsweredMeanwhile()
      throws Exception {
    byte[] descriptor = descriptor("mod-big-1.0.0", 10_400);
    assertThat((long) descriptor.length).isBetween(1_000_000L, LIMIT);
    int first = descriptor.length - 1024;

    RawResponse answer;
    try (Probe probe = Probe.start(gw);
        RawConnection c = RawConnection.open(gw.adminPort())) {
      c.send(head(descriptor.length, false));
      write(c, descriptor, 0, first, false, false);
      unrelatedRequestsAnswered();
      assertThat(c.available()).as("bytes answered to a body not all sent").isZero();
      write(c, descriptor, first, descriptor.length, false, false);
      assertThat(ping(gw.port(), "/s/ping").status()).isEqualTo(200);
      answer = c.response("POST", Duration.ofSeconds(30));
      probe.stopAndAssert(1);
    }

    assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
    gw.admin().delete("/_/proxy/modules/mod-big-1.0.0").then().statusCode(204);
  }

  /** A proxied request and an admin one (on the admin listener), each 200. */
  private static void unrelatedRequestsAnswered() throws IOException {
    assertThat(ping(gw.port(), "/s/ping").status()).as("proxied GET /s/ping").isEqualTo(200);
    try (RawConnection c = RawConnection.open(gw.adminPort())) {
      RawResponse tenant =
          c.send(
                  "GET /_/proxy/tenants/diku HTTP/1.1\r\nHost: x\r\n"
                      + "X-Okapi-Token: "
                      + gw.superToken()
                      + "\r\n\r\n")
              .response("GET", HostileGateway.ANSWER_BOUND);
      assertThat(tenant.status()).as("admin GET /_/proxy/tenants/diku: " + tenant).isEqualTo(200);
    }
  }

  private static RawResponse ping(int port, String path) throws IOException {
    try (RawConnection c = RawConnection.open(port)) {
      return c.send("GET " + path + " HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n\r\n")
          .response("GET", HostileGateway.ANSWER_BOUND);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"/x/{id", "/x/{a/b}", "/x/a}", "/x/a b", "/x/%41", "/x?q=1", "/x/(a)"})
  void malformedPathPattern_400NothingRegistered(String pattern) {
    // no '-' before the hash: "-5..." would start the id's version, which Okapi refuses first
    String id = "mod-badx" + Integer.toHexString(pattern.hashCode()) + "-1.0.0";
    JsonObject descriptor = Descriptors.module(id, "bad", Descriptors.handler("GET", pattern));
    gw.admin()
        .body(descriptor.encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(400)
        .body(containsString("pathPattern " + pattern));
    gw.admin().get("/_/proxy/modules/" + id).then().statusCode(404);
  }

  private static String head(int length, boolean chunked) {
    return "POST /_/proxy/modules HTTP/1.1\r\nHost: x\r\nX-Okapi-Token: "
        + gw.superToken()
        + "\r\nContent-Type: application/json\r\n"
        + (chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + length)
        + "\r\n\r\n";
  }

  /** Okapi takes any period: a timer PATCHed to 1 ms called its module ~1,000 times a second. */
  @Test
  void timerPatchedUnderOneSecond_400NamingTheMinimum() {
    String timer = "/_/proxy/tenants/diku/timers/mod-timer_0";
    try {
      gw.admin()
          .body("{\"unit\":\"millisecond\",\"delay\":\"1\"}")
          .patch(timer)
          .then()
          .statusCode(400)
          .body(containsString("at least 1 second"));
    } finally {
      gw.admin().body("{\"unit\":\"minute\",\"delay\":\"0\"}").patch(timer);
    }
  }

  /**
   * A filter {@code pathPattern} with many {@code *}, compiled to a regular expression, took time
   * exponential in the path to refuse one that almost matches: an event loop held for seconds by
   * one request. Tenant {@code stars} has such a filter (nothing else of the run goes there).
   */
  @Test
  void filterPatternWithManyStars_nearMissAnsweredAtOnce() throws Exception {
    AdminCalls calls = new AdminCalls(gw::admin);
    calls.createTenant("stars");
    calls.enable("stars", HostileGateway.BACKEND_ID);
    calls.register(
        Descriptors.filters(
            "mod-stars-1.0.0", Descriptors.filter("/" + "*a".repeat(8) + "*b", "pre")),
        gw.backend.url());
    calls.enable("stars", "mod-stars-1.0.0");
    Outcome outcome =
        Outcome.of(
            () -> {
              try (RawConnection c = RawConnection.open(gw.port())) {
                return c.send(
                        "GET /s/"
                            + "a".repeat(44)
                            + " HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: stars\r\n\r\n")
                    .response("GET", Duration.ofSeconds(30));
              }
            });
    assertThat(outcome.status()).as(outcome.toString()).isEqualTo(200);
    assertThat(outcome.millis()).as(outcome.toString()).isLessThan(1_000);
  }

  /**
   * Writes the rest of the body from a thread of its own while the answer is read: the gateway may
   * answer (and close) before it is all sent.
   */
  private static RawResponse finish(RawConnection c, byte[] body, int from, boolean chunked)
      throws Exception {
    CompletableFuture<Void> upload =
        CompletableFuture.runAsync(
            () -> {
              try {
                write(c, body, from, body.length, chunked, true);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    RawResponse answer = c.response("POST", Duration.ofSeconds(30));
    c.close();
    upload.handle((v, e) -> null).get(30, TimeUnit.SECONDS);
    return answer;
  }

  /**
   * Writes {@code body[from, to)} in 64 KiB pieces (chunks, if {@code chunked}), and the last chunk
   * if {@code to} is the end.
   *
   * @param closedOk whether the gateway closing the connection midway ends it quietly
   */
  private static void write(
      RawConnection c, byte[] body, int from, int to, boolean chunked, boolean closedOk)
      throws IOException {
    int piece = 64 * 1024;
    try {
      for (int off = from; off < to; off += piece) {
        int n = Math.min(piece, to - off);
        if (chunked) {
          c.send(Integer.toHexString(n) + "\r\n");
        }
        c.send(Arrays.copyOfRange(body, off, off + n));
        if (chunked) {
          c.send("\r\n");
        }
      }
      if (chunked && to == body.length) {
        c.send("0\r\n\r\n");
      }
    } catch (IOException closed) {
      if (!closedOk) {
        throw closed;
      }
    }
  }

  /** A module descriptor with {@code handlers} handlers, about 110 bytes each. */
  private static byte[] descriptor(String id, int handlers) {
    JsonArray entries = new JsonArray();
    for (int i = 0; i < handlers; i++) {
      entries.add(
          new JsonObject()
              .put("methods", new JsonArray().add("GET"))
              .put("pathPattern", "/big" + i + "/{id}/sub")
              .put("permissionsRequired", new JsonArray().add("big.item" + i + ".get")));
    }
    return new JsonObject()
        .put("id", id)
        .put(
            "provides",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("id", id.replace('.', '-'))
                        .put("version", "1.0")
                        .put("handlers", entries)))
        .encode()
        .getBytes(StandardCharsets.UTF_8);
  }
}
