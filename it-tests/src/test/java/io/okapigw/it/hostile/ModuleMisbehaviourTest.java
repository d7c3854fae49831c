package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Answers of a module that break HTTP ({@link DyingModule}) never reach the client, nor the
 * gateway's pool of module connections: a {@code 101 Switching Protocols} to a request that asked
 * for no upgrade was relayed to the client; a body after the answer to a {@code HEAD} was read, on
 * the pooled connection, as the answer to the next request sent there (502); so were the byte left
 * by a {@code Content-Length} one short and a byte after a chunked body's end ({@code invalid
 * version format}, Okapi 6.1.5 answers it 500).
 */
@ExtendWith(HostileGateway.Resolver.class)
class ModuleMisbehaviourTest {

  private static final String DIKU = "X-Okapi-Tenant: diku\r\n";
  private static final Duration BOUND = HostileGateway.ANSWER_BOUND;

  private static HostileGateway gw;

  @BeforeAll
  static void start(HostileGateway gateway) {
    gw = gateway;
  }

  @Test
  void switchingProtocolsWithoutUpgrade_502_neverRelayed() throws Exception {
    try (RawConnection c = RawConnection.open(gw.port())) {
      c.send("GET /die/upgrade HTTP/1.1\r\nHost: x\r\n" + DIKU + "Connection: close\r\n\r\n");
      String answer = c.readUntilClosed(BOUND);
      assertThat(answer).startsWith("HTTP/1.1 502 ").doesNotContain("not HTTP");
    }
    dyingModulePoolServes();
  }

  @Test
  void bodyAfterHeadAnswer_neverReadAsAnotherAnswer() throws Exception {
    for (int i = 0; i < 2 * HostileGateway.MAX_CONNECTIONS; i++) {
      try (RawConnection c = RawConnection.open(gw.port())) {
        RawResponse head =
            c.send("HEAD /die/head HTTP/1.1\r\nHost: x\r\n" + DIKU + "\r\n")
                .response("HEAD", BOUND);
        assertThat(head.status()).as(head.toString()).isEqualTo(200);
      }
    }
    dyingModulePoolServes();
  }

  @ParameterizedTest
  @ValueSource(strings = {"/die/short", "/die/chunked-extra"})
  void bytesAfterTheAnswersEnd_neverReadAsAnotherAnswer(String path) throws Exception {
    for (int i = 0; i < 2 * HostileGateway.MAX_CONNECTIONS; i++) {
      try (RawConnection c = RawConnection.open(gw.port())) {
        RawResponse answer =
            c.send("GET " + path + " HTTP/1.1\r\nHost: x\r\n" + DIKU + "\r\n")
                .response("GET", BOUND);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
      }
    }
    dyingModulePoolServes();
  }

  /** More requests at once than the pools hold: every pooled connection is drawn. */
  private static void dyingModulePoolServes() throws InterruptedException {
    List<Outcome> answers =
        Outcome.concurrently(
            2 * HostileGateway.MAX_CONNECTIONS + 4,
            BOUND,
            () -> {
              try (RawConnection c = RawConnection.open(gw.port())) {
                return c.send("GET /die/ok HTTP/1.1\r\nHost: x\r\n" + DIKU + "\r\n")
                    .response("GET", BOUND);
              }
            });
    assertThat(answers).allSatisfy(o -> assertThat(o.status()).as(o.toString()).isEqualTo(200));
  }
}
