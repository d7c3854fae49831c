package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
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
 * naming the 1 MiB limit, with or without a Content-Length, while proxied traffic on the public
 * listener keeps being answered in time; one just under the limit is registered, traffic still
 * flowing; a malformed {@code pathPattern} is refused (400) and nothing registered.
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

  @ParameterizedTest(name = "chunked={0}")
  @ValueSource(booleans = {false, true})
  void tenMegabyteDescriptor_413NamingTheLimit_proxiedTrafficUnaffected(boolean chunked)
      throws Exception {
    byte[] descriptor = descriptor("mod-huge-1.0.0", 110_000);
    assertThat(descriptor.length).isGreaterThan(10_000_000);

    RawResponse answer;
    try (Probe probe = Probe.start(gw)) {
      TimeUnit.MILLISECONDS.sleep(200);
      answer = post(descriptor, chunked);
      TimeUnit.MILLISECONDS.sleep(300);
      probe.stopAndAssert(5);
      assertThat(probe.slowestMillis()).as("slowest proxied request, ms").isLessThan(1_000);
    }

    assertThat(answer.status()).as(answer.toString()).isEqualTo(413);
    assertThat(answer.text()).contains(LIMIT_TEXT);
    gw.admin().get("/_/proxy/modules/mod-huge-1.0.0").then().statusCode(404);
  }

  @Test
  void descriptorJustUnderTheLimit_registered_proxiedTrafficUnaffected() throws Exception {
    byte[] descriptor = descriptor("mod-big-1.0.0", 10_400);
    assertThat((long) descriptor.length).isBetween(1_000_000L, LIMIT);

    RawResponse answer;
    try (Probe probe = Probe.start(gw)) {
      TimeUnit.MILLISECONDS.sleep(200);
      answer = post(descriptor, false);
      TimeUnit.MILLISECONDS.sleep(300);
      probe.stopAndAssert(5);
      assertThat(probe.slowestMillis()).as("slowest proxied request, ms").isLessThan(1_000);
    }

    assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
    gw.admin().delete("/_/proxy/modules/mod-big-1.0.0").then().statusCode(204);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/x/{id", "/x/{a/b}", "/x/a}", "/x/a b", "/x/%41", "/x?q=1",
      "/x/(a)"})
  void malformedPathPattern_400NothingRegistered(String pattern) {
    String id = "mod-bad-" + Integer.toHexString(pattern.hashCode()) + "-1.0.0";
    JsonObject descriptor = new JsonObject().put("id", id).put("provides", new JsonArray()
        .add(new JsonObject().put("id", "bad").put("version", "1.0").put("handlers",
            new JsonArray().add(new JsonObject().put("methods", new JsonArray().add("GET"))
                .put("pathPattern", pattern).put("permissionsRequired", new JsonArray())))));
    gw.admin().body(descriptor.encode()).post("/_/proxy/modules").then().statusCode(400)
        .body(containsString("pathPattern " + pattern));
    gw.admin().get("/_/proxy/modules/" + id).then().statusCode(404);
  }

  /**
   * Posts {@code body} to {@code /_/proxy/modules} as super_admin, writing it from a thread of
   * its own while the answer is read: the gateway may answer (and close) before it is all sent.
   */
  private static RawResponse post(byte[] body, boolean chunked) throws Exception {
    try (RawConnection c = RawConnection.open(gw.adminPort())) {
      c.send("POST /_/proxy/modules HTTP/1.1\r\nHost: x\r\nX-Okapi-Token: " + gw.superToken()
          + "\r\nContent-Type: application/json\r\n"
          + (chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + body.length)
          + "\r\n\r\n");
      CompletableFuture<Void> upload = CompletableFuture.runAsync(() -> write(c, body, chunked));
      RawResponse answer = c.response("POST", Duration.ofSeconds(30));
      c.close();
      upload.handle((v, e) -> null).get(30, TimeUnit.SECONDS);
      return answer;
    }
  }

  private static void write(RawConnection c, byte[] body, boolean chunked) {
    int piece = 64 * 1024;
    try {
      for (int off = 0; off < body.length; off += piece) {
        int n = Math.min(piece, body.length - off);
        if (chunked) {
          c.send(Integer.toHexString(n) + "\r\n");
        }
        c.send(Arrays.copyOfRange(body, off, off + n));
        if (chunked) {
          c.send("\r\n");
        }
      }
      if (chunked) {
        c.send("0\r\n\r\n");
      }
    } catch (IOException closed) {
      // the gateway answered and closed before the whole body was sent
    }
  }

  /** A module descriptor with {@code handlers} handlers, about 110 bytes each. */
  private static byte[] descriptor(String id, int handlers) {
    JsonArray entries = new JsonArray();
    for (int i = 0; i < handlers; i++) {
      entries.add(new JsonObject().put("methods", new JsonArray().add("GET"))
          .put("pathPattern", "/big" + i + "/{id}/sub")
          .put("permissionsRequired", new JsonArray().add("big.item" + i + ".get")));
    }
    return new JsonObject().put("id", id).put("provides", new JsonArray().add(new JsonObject()
            .put("id", id.replace('.', '-')).put("version", "1.0").put("handlers", entries)))
        .encode().getBytes(StandardCharsets.UTF_8);
  }
}
