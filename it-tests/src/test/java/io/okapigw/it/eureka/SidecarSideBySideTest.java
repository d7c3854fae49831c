package io.okapigw.it.eureka;

import static io.okapigw.it.eureka.SideBySide.ALICE;
import static io.okapigw.it.eureka.SideBySide.LIBRARIAN;
import static io.okapigw.it.eureka.SideBySide.TENANT;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.testsupport.eureka.EurekaRealm.Tokens;
import io.restassured.response.Response;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our gateway beside the real folio-module-sidecar (issue 46 item 3): the same two modules, the
 * same realm, the same Keycloak and Kafka ({@link SideBySide}); compared on the decision of each of
 * a matrix of requests, the headers of the module-to-module call at the callee, and what a logout
 * and a role revocation do over time.
 */
@ExtendWith({EurekaCheck.class, SidecarCheck.class})
@Timeout(value = 25, unit = TimeUnit.MINUTES)
class SidecarSideBySideTest {

  /** How many polls a change over time gets at most, one per side per round. */
  private static final int MAX_POLLS = 2000;

  /** The bound of a change over time: no refusal by then counts as still granted. */
  private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);

  @TempDir static Path dir;

  private static SideBySide sides;

  @BeforeAll
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  static void start() throws Exception {
    sides = SideBySide.start(dir, true, List.of());
  }

  @AfterAll
  static void stop() {
    if (sides != null) {
      sides.close();
    }
  }

  private static Response viaSidecar(String method, String path, String token) {
    return request(sides.sidecarFor(path.replaceAll("\\?.*", "")), method, path, token);
  }

  private static Response viaOurs(String method, String path, String token) {
    return request(sides.oursUrl(), method, path, token);
  }

  private static Response request(String base, String method, String path, String token) {
    var spec = given().baseUri(base).urlEncodingEnabled(false).header("X-Okapi-Tenant", TENANT);
    if (token != null) {
      spec.header("Authorization", "Bearer " + token);
    }
    if ("POST".equals(method)) {
      spec.contentType("application/json").body("{}");
    }
    return spec.request(method, path);
  }

  @Test
  void decisions_sameOnEachRequestOfTheMatrix() throws Exception {
    Map<String, String> tokens = new LinkedHashMap<>();
    tokens.put("alice (Librarian)", sides.realm.login("alice", "alice-password").access());
    tokens.put("carol (no role)", sides.realm.login("carol", "carol-password").access());
    tokens.put("dora (Writer)", sides.realm.login("dora", "dora-password").access());
    tokens.put("no token", null);
    tokens.put("not a JWT", "not-a-token");
    String alice = tokens.get("alice (Librarian)");
    tokens.put("alice's, signature changed", alice.substring(0, alice.length() - 4) + "AAAA");
    List<String> requests =
        List.of(
            "GET /things",
            "POST /things",
            "GET /things/1",
            "DELETE /things/1",
            "GET /call",
            "GET /checkout?n=3");
    List<String> rows = new ArrayList<>();
    List<String> differences = new ArrayList<>();
    for (Map.Entry<String, String> who : tokens.entrySet()) {
      for (String request : requests) {
        String[] mp = request.split(" ", 2);
        int sidecar = viaSidecar(mp[0], mp[1], who.getValue()).statusCode();
        int ours = viaOurs(mp[0], mp[1], who.getValue()).statusCode();
        String row =
            String.format("%-28s %-20s sidecar %d ours %d", who.getKey(), request, sidecar, ours);
        rows.add(row);
        if (sidecar != ours) {
          differences.add(row);
        }
      }
    }
    System.out.println("side-by-side decisions:\n  " + String.join("\n  ", rows));
    assertThat(differences).as("decisions that differ").isEmpty();
    assertThat(rows).as("the matrix has grants and refusals").anyMatch(r -> r.endsWith("ours 200"));
    assertThat(rows).anyMatch(r -> r.endsWith("ours 403"));
    assertThat(rows).anyMatch(r -> r.endsWith("ours 401"));
  }

  @Test
  void moduleToModuleCall_calleeGetsTheSameHeaders() throws Exception {
    Tokens alice = sides.realm.login("alice", "alice-password");
    MultiMap sidecar = calleeHeaders(p -> viaSidecar("GET", p, alice.access()));
    MultiMap ours = calleeHeaders(p -> viaOurs("GET", p, alice.access()));
    System.out.println("at the callee via the sidecars: " + sidecar);
    System.out.println("at the callee via ours: " + ours);

    assertThat(xNames(ours)).isEqualTo(xNames(sidecar));
    for (String same : List.of("X-Okapi-Tenant", "X-Okapi-Token", "X-Okapi-User-Id")) {
      assertThat(ours.get(same)).as(same).isEqualTo(sidecar.get(same));
    }
    assertThat(ours.get("X-Okapi-Token")).isEqualTo(alice.access());
    assertThat(ours.get("X-Okapi-User-Id")).isEqualTo(ALICE);
    assertThat(ours.get("User-Agent")).isEqualTo(sidecar.get("User-Agent"));
    assertThat(ours.get("Authorization")).isEqualTo(sidecar.get("Authorization"));
    // X-System-Token: both a token of the service client, the System role's
    assertThat(claim(ours.get("X-System-Token"), "azp"))
        .isEqualTo(claim(sidecar.get("X-System-Token"), "azp"));
    assertThat(ours.get("X-Okapi-Sidecar-Signature").length())
        .isEqualTo(sidecar.get("X-Okapi-Sidecar-Signature").length());
  }

  /** The headers mod-things got on mod-caller's POST /things within one GET /call. */
  private static MultiMap calleeHeaders(Function<String, Response> get) throws Exception {
    sides.modules.thingsGot.clear();
    Response answer = get.apply("/call");
    assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(200);
    assertThat(answer.asString()).isEqualTo("201");
    MultiMap got = sides.modules.thingsGot.poll(1, TimeUnit.MINUTES);
    assertThat(got).as("mod-things was called").isNotNull();
    return got;
  }

  private static Set<String> xNames(MultiMap headers) {
    Set<String> names = new TreeSet<>();
    headers.names().forEach(n -> names.add(n.toLowerCase(java.util.Locale.ROOT)));
    names.removeIf(
        n -> !n.startsWith("x-") && !"authorization".equals(n) && !"user-agent".equals(n));
    return names;
  }

  private static String claim(String token, String name) {
    assertThat(token).as("a token").isNotBlank();
    String payload =
        new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
    return new JsonObject(payload).getString(name);
  }

  @Test
  void logout_bothRefuseTheSession_oursNoLater() throws Exception {
    Tokens tokens = sides.realm.login("alice", "alice-password");
    for (int i = 0; i < 2; i++) {
      assertThat(viaSidecar("GET", "/things", tokens.access()).statusCode()).isEqualTo(200);
      assertThat(viaOurs("GET", "/things", tokens.access()).statusCode()).isEqualTo(200);
    }

    // as mod-login-keycloak: the event first, then Keycloak's logout
    long start = System.nanoTime();
    sides.logoutEvent(ALICE, claim(tokens.access(), "sid"));
    sides.realm.logout(tokens);
    Race race = race(start, side -> side.apply("/things", tokens.access()) != 200);

    System.out.println("logout refused: " + race);
    assertThat(race.ours).as("ours refuses the logged-out session (%s)", race).isNotNull();
    assertThat(race.sidecar).as("the sidecars refuse it (%s)", race).isNotNull();
    assertThat(race.ours.polls).isLessThanOrEqualTo(race.sidecar.polls);
  }

  @Test
  void revokedRole_oursRefusesIt_theSidecarStillGrantsIt() throws Exception {
    Tokens tokens = sides.realm.login("bob", "bob-password");
    for (int i = 0; i < 2; i++) {
      assertThat(viaSidecar("GET", "/things", tokens.access()).statusCode()).isEqualTo(200);
      assertThat(viaOurs("GET", "/things", tokens.access()).statusCode()).isEqualTo(200);
    }

    long start = System.nanoTime();
    sides.realm.revoke("bob", LIBRARIAN);
    Race race = race(start, side -> side.apply("/things", tokens.access()) == 403);

    System.out.println("revoked role refused: " + race);
    assertThat(race.ours).as("ours refuses the revoked role (%s)", race).isNotNull();
    // the sidecar keeps a granted decision until the token expires (its cache key holds exp)
    assertThat(race.sidecar == null || race.sidecar.polls > race.ours.polls)
        .as("the sidecars grant the revoked role after ours refuses it (%s)", race)
        .isTrue();
  }

  /** When each side first met a condition: the poll's number and the time since the change. */
  record Seen(int polls, long millis) {}

  /** Each side's first {@link Seen}, null where it did not happen within the bound. */
  record Race(Seen sidecar, Seen ours) {}

  interface Side {
    int apply(String path, String token);
  }

  /**
   * Polls both sides in turn, once each a round, until each met {@code done} or the bound ({@value
   * #MAX_POLLS} rounds, {@link #DEADLINE_NANOS}) is reached.
   */
  private static Race race(long start, java.util.function.Predicate<Side> done) {
    Side sidecar = (path, token) -> viaSidecar("GET", path, token).statusCode();
    Side ours = (path, token) -> viaOurs("GET", path, token).statusCode();
    Seen s = null;
    Seen o = null;
    for (int round = 1; round <= MAX_POLLS && (s == null || o == null); round++) {
      long elapsed = System.nanoTime() - start;
      if (elapsed > DEADLINE_NANOS) {
        break;
      }
      if (s == null && done.test(sidecar)) {
        s = new Seen(round, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
      }
      if (o == null && done.test(ours)) {
        o = new Seen(round, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
      }
    }
    return new Race(s, o);
  }
}
