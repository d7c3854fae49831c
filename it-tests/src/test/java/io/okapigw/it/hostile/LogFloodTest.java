package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.FreePorts;
import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A flood of failing requests anyone can send, read back from the gateway JVM's own output (its
 * production log configuration): bounded lines (at most 20 per kind of failure and minute, plus a
 * count of those not logged), one line each, no stack trace, no token. The flood lasts seconds, so
 * it spans at most two of the log's one-minute windows.
 */
@ExtendWith(HostileGateway.Resolver.class)
class LogFloodTest {

  /** Four kinds (client, upstream, broken connection, internal), two windows, 20 + 1 lines. */
  private static final int MAX_LINES = 4 * 2 * 21;

  private static final Pattern STACK_TRACE =
      Pattern.compile(
          "^\\s+at |^\\s*Caused by|^\\s*\\.\\.\\. \\d+ more|^[\\w$.]+\\.[A-Z]\\w*(Exception|Error)\\b");
  private static final String DIKU = "Host: x\r\nX-Okapi-Tenant: diku\r\n";
  private static final int EACH = 60;

  private static HostileGateway gw;

  @BeforeAll
  static void start(HostileGateway gateway) throws IOException {
    gw = gateway;
    String down = "http://127.0.0.1:" + closedPort();
    gw.admin()
        .body(
            "{\"id\":\"mod-down-1.0.0\",\"provides\":[{\"id\":\"down\",\"version\":\"1.0\","
                + "\"handlers\":[{\"methods\":[\"*\"],\"pathPattern\":\"/down/*\","
                + "\"permissionsRequired\":[]}]}]}")
        .post("/_/proxy/modules")
        .then()
        .statusCode(201);
    gw.admin()
        .body("{\"srvcId\":\"mod-down-1.0.0\",\"instId\":\"down-1\",\"url\":\"" + down + "\"}")
        .post("/_/discovery/modules")
        .then()
        .statusCode(201);
    gw.admin()
        .body("{\"id\":\"mod-down-1.0.0\"}")
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(201);
  }

  private static int closedPort() throws IOException {
    return FreePorts.closed();
  }

  @Test
  void floodOfFailingRequests_boundedLinesNoStackTraceNoTokenNoControlCharacter() throws Exception {
    String token = gw.aliceToken();
    int mark = gw.output().length();
    int failed = 0;
    for (int i = 0; i < EACH; i++) {
      hangUpMidUpload(); // first: the requests after it give the gateway time to notice
      String id = "X-Okapi-Request-Id: flood-" + i + "\r\n";
      failed += expect(400, "GET /s/../secure/" + token + " HTTP/1.1\r\n" + DIKU + id + "\r\n");
      failed += expect(400, "GET /s/%2e%2e/x HTTP/1.1\r\n" + DIKU + "\r\n");
      failed +=
          expect(
              400,
              "POST /s/echo HTTP/1.1\r\n"
                  + DIKU
                  + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
      failed +=
          expect(501, "POST /s/echo HTTP/1.1\r\n" + DIKU + "Transfer-Encoding: xchunked\r\n\r\n");
      failed += expect(400, "GET /s/ping HTTP/1.1\r\nX-Okapi-Tenant: diku\r\n\r\n");
      failed +=
          expect(
              400, "POST /s/echo HTTP/1.1\r\n" + DIKU + "Transfer-Encoding: chunked\r\n\r\nzz\r\n");
      failed +=
          expect(
              401,
              "GET /secure/x HTTP/1.1\r\n"
                  + DIKU
                  + "X-Okapi-Token: "
                  + token.substring(0, token.length() - 4)
                  + "AAAA\r\n\r\n");
      failed +=
          expect(
              502,
              "GET /down/x HTTP/1.1\r\n" + DIKU + "X-Okapi-Token: " + token + "\r\n" + id + "\r\n");
      failed += expect(400, "GET /s/ping HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: nosuch\r\n\r\n");
      failed += expect(403, "GET /_/proxy/tenants HTTP/1.1\r\nHost: x\r\n\r\n");
      failed +=
          expect(
              431, "GET /s/ping HTTP/1.1\r\n" + DIKU + "X-Big: " + "a".repeat(20_000) + "\r\n\r\n");
      failed += expect(403, "GET /s/cors HTTP/1.1\r\n" + DIKU + "Origin: https://a b\r\n\r\n");
      failed +=
          expect(
              400,
              "GET /s/ping HTTP/1.1\r\nHost: a b\r\nX-Okapi-Tenant: diku\r\n"
                  + "Origin: https://ui.example\r\n\r\n");
      failed += expect(505, "GET /s/ping HTTP/2.0\r\n" + DIKU + "\r\n");
      failed += expect(501, "CONNECT /s/echo HTTP/1.1\r\n" + DIKU + "\r\n");
      pipelineThenReset();
    }
    List<String> lines = gw.output().substring(mark).lines().toList();

    assertThat(failed).as("requests that failed as expected").isEqualTo(15 * EACH);
    assertThat(lines)
        .as("log lines for %d failing requests", failed)
        .hasSizeLessThanOrEqualTo(MAX_LINES);
    assertThat(lines).as("stack trace lines").noneMatch(l -> STACK_TRACE.matcher(l).find());
    assertThat(lines)
        .as("lines of other loggers than the failure log")
        .allMatch(l -> l.contains(" Failures - "));
    assertThat(String.join("\n", lines)).as("the log").doesNotContain(token);
    assertThat(lines)
        .as("lines over 500 characters and the line's prefix")
        .allMatch(l -> l.length() < 600);
  }

  /**
   * @return 1 if the request is answered {@code status}; fails if it is not answered
   */
  private static int expect(int status, String raw) throws IOException {
    try (RawConnection c = RawConnection.open(gw.port())) {
      RawResponse response = c.send(raw).response();
      assertThat(response.status())
          .as(raw.substring(0, Math.min(raw.length(), 80)) + " -> " + response)
          .isEqualTo(status);
      return 1;
    }
  }

  /**
   * Pipelines three requests to the module and resets the connection (Vert.x 5.0 logged a 20-line
   * stack trace for it).
   */
  private static void pipelineThenReset() throws IOException {
    RawConnection c = RawConnection.open(gw.port());
    c.send(("GET /s/ping HTTP/1.1\r\n" + DIKU + "\r\n").repeat(3));
    c.reset();
  }

  /** Sends half a body to the module, then resets the connection. */
  private static void hangUpMidUpload() throws IOException {
    RawConnection c = RawConnection.open(gw.port());
    c.send("POST /s/echo HTTP/1.1\r\n" + DIKU + "Content-Length: 100000\r\n\r\n").zeros(50_000);
    c.reset();
  }
}
