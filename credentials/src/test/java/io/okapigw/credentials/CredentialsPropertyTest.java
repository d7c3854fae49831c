package io.okapigw.credentials;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.MultiMap;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * For random sets of credential header lines, the reading depends on what they say, not on how they
 * are laid out: the order of the lines, and {@code Cookie} lines split or joined, give the same
 * credentials or the same refusal. The seed is printed; rerun with {@code -Dcredentials.seed=S}.
 */
class CredentialsPropertyTest {

  private static final String[][] LINES = {
    {"X-Okapi-Token", "A"},
    {"X-Okapi-Token", "B"},
    {"X-Okapi-Token", ""},
    {"Authorization", "Bearer A"},
    {"Authorization", "bearer B"},
    {"Authorization", "A"},
    {"Cookie", "a=b"},
    {"Cookie", "folioAccessToken=A"},
    {"Cookie", "c=d; folioAccessToken=B"},
    {"Cookie", "folioRefreshToken=R"},
    {"X-Okapi-User-Id", "u1"},
    {"X-Okapi-User-Id", "u2"},
    {"X-Okapi-Tenant", "diku"},
    {"Accept", "*/*"}
  };

  @Test
  void randomLines_readingIndependentOfOrderAndCookieSplitting() {
    long seed = Long.getLong("credentials.seed", new SecureRandom().nextLong());
    Random random = new Random(seed);
    for (int i = 0; i < 5_000; i++) {
      List<Map.Entry<String, String>> lines = new ArrayList<>();
      int n = random.nextInt(6);
      for (int j = 0; j < n; j++) {
        String[] line = LINES[random.nextInt(LINES.length)];
        lines.add(Map.entry(line[0], line[1]));
      }
      String expected = outcome(lines);
      List<Map.Entry<String, String>> shuffled = new ArrayList<>(lines);
      Collections.shuffle(shuffled, random);
      assertThat(outcome(shuffled)).as("seed %d, lines %s", seed, shuffled).isEqualTo(expected);
      assertThat(outcome(cookiesJoined(shuffled)))
          .as("seed %d, lines %s, cookies joined", seed, shuffled)
          .isEqualTo(expected);
    }
  }

  /** The same lines with every Cookie line joined into the first, as RFC 9113 8.2.3 says. */
  private static List<Map.Entry<String, String>> cookiesJoined(List<Map.Entry<String, String>> in) {
    List<Map.Entry<String, String>> out = new ArrayList<>();
    StringBuilder cookies = null;
    int at = -1;
    for (Map.Entry<String, String> line : in) {
      if (!line.getKey().equals("Cookie")) {
        out.add(line);
      } else if (cookies == null) {
        cookies = new StringBuilder(line.getValue());
        at = out.size();
        out.add(line);
      } else {
        cookies.append("; ").append(line.getValue());
      }
    }
    if (cookies != null) {
      out.set(at, Map.entry("Cookie", cookies.toString()));
    }
    return out;
  }

  private static String outcome(List<Map.Entry<String, String>> lines) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    lines.forEach(l -> headers.add(l.getKey(), l.getValue()));
    try {
      Credentials c = Credentials.read(headers);
      return c.tenant() + "|" + c.token() + "|" + c.userId();
    } catch (CredentialsException e) {
      return e.status()
          + " "
          + e.getMessage()
              .replaceAll(
                  "(X-Okapi-Token|Authorization|the folioAccessToken cookie) and .*",
                  "sources disagree");
    }
  }
}
