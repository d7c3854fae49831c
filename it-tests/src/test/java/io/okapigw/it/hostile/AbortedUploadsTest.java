package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The security review's case against the gateway JVM: a client posts a large Content-Length and a
 * little body, the module answers 413 before reading it, the client gives up (reset or close). The
 * gateway's connection to the module then holds a request sent in part; were it pooled again, the
 * module would read the next request on it as the rest of that body, and it would hang. {@link
 * #ABORTS} aborts fill every module pool of the gateway ({@link HostileGateway#MAX_CONNECTIONS} per
 * event loop, 2 loops), so {@code ABORTS + 4} concurrent requests afterwards must use every
 * connection the aborts touched.
 */
@ExtendWith(HostileGateway.Resolver.class)
class AbortedUploadsTest {

  private static final int ABORTS = 2 * HostileGateway.MAX_CONNECTIONS;
  private static final long DECLARED = 1_000_000;
  private static final Duration BOUND = HostileGateway.ANSWER_BOUND;

  private static HostileGateway gw;

  @BeforeAll
  static void start(HostileGateway gateway) {
    gw = gateway;
  }

  @ParameterizedTest(name = "reset={0}")
  @ValueSource(booleans = {true, false})
  void upload_moduleAnswers413Early_clientGivesUp_laterConcurrentRequestsAllAnswerInTime(
      boolean reset) throws Exception {
    List<Integer> aborted = abortUploads("/s/upload", reset);

    List<Outcome> pings =
        Outcome.concurrently(
            ABORTS + 4,
            BOUND,
            () -> request("GET /s/ping HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n\r\n"));

    assertThat(aborted).as("statuses of the aborted uploads").containsOnly(413);
    assertAllAnswered(pings, 200);
  }

  /**
   * The review's original request: a login to the auth module with a huge Content-Length. The auth
   * filter calls go to the same module instance, so a jammed pool fails every later request of the
   * tenant, logins included.
   */
  @ParameterizedTest(name = "reset={0}")
  @ValueSource(booleans = {true, false})
  void login_authModuleAnswers413Early_clientGivesUp_laterConcurrentLoginsAllAnswerInTime(
      boolean reset) throws Exception {
    List<Integer> aborted = abortUploads("/authn/login", reset);

    String body = "{\"username\":\"alice\",\"password\":\"alice\"}";
    List<Outcome> logins =
        Outcome.concurrently(
            ABORTS + 4,
            BOUND,
            () ->
                request(
                    "POST /authn/login HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n"
                        + "Content-Type: application/json\r\nContent-Length: "
                        + body.length()
                        + "\r\n\r\n"
                        + body));

    assertThat(aborted).as("statuses of the aborted logins").containsOnly(413);
    assertAllAnswered(logins, 201);
  }

  /**
   * Posts 1 KiB of a declared megabyte {@link #ABORTS} times, reads the answer, then resets or
   * closes the connection.
   *
   * @return the statuses answered, -1 for none in time
   */
  private static List<Integer> abortUploads(String path, boolean reset) throws IOException {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < ABORTS; i++) {
      RawConnection c = RawConnection.open(gw.port());
      c.send(
              "POST "
                  + path
                  + " HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n"
                  + "Content-Type: application/json\r\nContent-Length: "
                  + DECLARED
                  + "\r\n\r\n")
          .zeros(1024);
      statuses.add(Outcome.of(c::response).status());
      if (reset) {
        c.reset();
      } else {
        c.close();
      }
    }
    return statuses;
  }

  private static RawResponse request(String raw) throws IOException {
    try (RawConnection c = RawConnection.open(gw.port())) {
      return c.send(raw).response("GET", BOUND);
    }
  }

  private static void assertAllAnswered(List<Outcome> outcomes, int status) {
    assertThat(outcomes)
        .as("every request answers %d within %s", status, BOUND)
        .allSatisfy(o -> assertThat(o.status()).as(o.toString()).isEqualTo(status));
  }
}
