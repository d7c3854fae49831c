package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Login guessing through the gateway: 40 wrong passwords for one user at once were all checked
 * (each a password hash), and other users' logins waited behind them. Now one user's guesses are
 * checked one at a time, the rest answered 429 with {@code Retry-After} at once; five failures lock
 * the user (as FOLIO's mod-login), while another user logs in as usual.
 */
@ExtendWith(HostileGateway.Resolver.class)
class LoginGuessingTest {

  private static final Duration BOUND = Duration.ofSeconds(30);

  private static HostileGateway gw;

  @BeforeAll
  static void start(HostileGateway gateway) {
    gw = gateway;
  }

  private static RawResponse login(String user, String password) throws IOException {
    String body = "{\"username\":\"" + user + "\",\"password\":\"" + password + "\"}";
    try (RawConnection c = RawConnection.open(gw.port())) {
      return c.send(
              "POST /authn/login HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n"
                  + "Content-Type: application/json\r\nContent-Length: "
                  + body.length()
                  + "\r\n\r\n"
                  + body)
          .response("POST", BOUND);
    }
  }

  @Test
  void fortyConcurrentGuesses_checkedOneAtATime_userLocked_anotherUserLogsIn() throws Exception {
    AtomicInteger n = new AtomicInteger();
    List<Outcome> guesses =
        Outcome.concurrently(40, BOUND, () -> login("carol", "guess" + n.incrementAndGet()));
    long checked = guesses.stream().filter(o -> o.status() == 422).count();
    assertThat(checked).as("guesses checked: %s", guesses).isBetween(1L, 5L);
    assertThat(guesses)
        .filteredOn(o -> o.status() != 422)
        .allSatisfy(
            o -> {
              assertThat(o.status()).as(o.toString()).isEqualTo(429);
              assertThat(o.detail()).containsIgnoringCase("Retry-After");
            });
    for (long i = checked; i < 5; i++) {
      assertThat(login("carol", "more" + i).status()).isEqualTo(422);
    }
    RawResponse locked = login("carol", "carol");
    assertThat(locked.status()).as(locked.toString()).isEqualTo(429);
    assertThat(locked.header("retry-after")).isNotNull();
    RawResponse other = login("dave", "dave");
    assertThat(other.status()).as(other.toString()).isEqualTo(201);
  }
}
