package io.okapigw.core.authcache;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.TestModule;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the cache key holds is exactly what the auth module decides on: for random sets of
 * credential header lines (several {@code Cookie}, {@code Authorization}, {@code X-Okapi-Token} and
 * {@code X-Okapi-User-Id} lines, in any order), a gateway with the cache answers every request as a
 * gateway without it does, whatever other clients sent before. The auth filter reads credentials
 * leniently (the token from any {@code Cookie} line too), so a key read another way than the
 * decision shows up as an answer the cacheless gateway would not give.
 *
 * <p>The seed is printed; rerun one sequence with {@code -Dcredentials.seed=S}.
 */
class CacheKeyPropertyTest {

  private static final int REQUESTS = Integer.getInteger("credentials.requests", 300);

  private static final String[] TOKEN_LINES = {"A", "B", "", " A "};
  private static final String[] AUTHORIZATION_LINES = {
    "Bearer A", "bearer B", "A", "Bearer  B ", "Basic Zm9v"
  };
  private static final String[] COOKIE_LINES = {
    "a=b",
    "folioAccessToken=A",
    "folioAccessToken=B",
    "c=d; folioAccessToken=A",
    "folioAccessToken=",
    "x=1;y=2",
    "folioRefreshToken=R"
  };
  private static final String[] USER_LINES = {"user-A", "user-B", "other", ""};

  private GatewayFixture cached;
  private GatewayFixture uncached;
  private final Map<GatewayFixture, RawClient> connections = new HashMap<>();

  @BeforeEach
  void start() {
    cached = new GatewayFixture();
    uncached =
        new GatewayFixture(
            GatewayOptions.defaults(0)
                .withAuthCache(AuthCacheOptions.defaults().withEnabled(false)));
    for (GatewayFixture gw : List.of(cached, uncached)) {
      TestModule auth =
          TestModule.start(gw.vertx(), r -> r.route().handler(CacheKeyPropertyTest::decide));
      TestModule items =
          TestModule.start(
              gw.vertx(),
              r ->
                  r.route()
                      .handler(
                          ctx ->
                              ctx.response()
                                  .end("user " + ctx.request().getHeader("X-Okapi-User-Id"))));
      gw.createTenant("diku");
      gw.install("diku", authModule("mod-auth-1.0.0"), auth.url());
      gw.install(
          "diku", module("mod-items-1.0.0", "items", handler("GET", "/items", "p")), items.url());
    }
  }

  @AfterEach
  void stop() {
    connections.values().forEach(RawClient::close);
    cached.close();
    uncached.close();
  }

  /**
   * A lenient auth module: the token from {@code X-Okapi-Token}, else from a {@code
   * folioAccessToken} cookie on any {@code Cookie} line, else from {@code Authorization}. Tokens A
   * and B are users user-A and user-B; a claimed user id must be the token's; no token: 401.
   */
  private static void decide(RoutingContext ctx) {
    MultiMap headers = ctx.request().headers();
    String token = headers.get("X-Okapi-Token");
    if (token == null) {
      token = anyCookieToken(headers.getAll("Cookie"));
    }
    String authorization = headers.get("Authorization");
    if (token == null && authorization != null) {
      token = authorization.replaceFirst("(?i)^bearer ", "").trim();
    }
    String claimed = headers.get("X-Okapi-User-Id");
    if (!"A".equals(token) && !"B".equals(token)) {
      ctx.response().setStatusCode(401).end("no valid token");
    } else if (claimed != null && !claimed.equals("user-" + token)) {
      ctx.response().setStatusCode(403).end("user id is not the token's");
    } else {
      ctx.response()
          .setStatusCode(202)
          .putHeader("X-Okapi-User-Id", "user-" + token)
          .putHeader("X-Okapi-Permissions", "[\"p\"]")
          .end();
    }
  }

  private static String anyCookieToken(List<String> lines) {
    for (String line : lines) {
      for (String cookie : line.split(";")) {
        String c = cookie.trim();
        if (c.startsWith("folioAccessToken=") && c.length() > "folioAccessToken=".length()) {
          return c.substring("folioAccessToken=".length());
        }
      }
    }
    return null;
  }

  @Test
  void randomCredentialLines_cachedGatewayAnswersAsTheUncachedOne() {
    long seed = Long.getLong("credentials.seed", new SecureRandom().nextLong());
    System.out.println("credentials: seed " + seed + " (rerun: -Dcredentials.seed=" + seed + ")");
    Random random = new Random(seed);
    for (int i = 0; i < REQUESTS; i++) {
      List<Map.Entry<String, String>> lines = headerLines(random);
      String onCached = send(cached, lines);
      String onUncached = send(uncached, lines);
      assertThat(onCached)
          .as("request %d of seed %d with header lines %s", i, seed, lines)
          .isEqualTo(onUncached);
    }
  }

  /** Many sets carry no credential at all: they are the ones a wrongly keyed grant would serve. */
  private static List<Map.Entry<String, String>> headerLines(Random random) {
    List<Map.Entry<String, String>> lines = new ArrayList<>();
    add(lines, random, "X-Okapi-Token", TOKEN_LINES, random.nextInt(6) == 0 ? 2 : 1, 4);
    add(lines, random, "Authorization", AUTHORIZATION_LINES, 2, 5);
    add(lines, random, "Cookie", COOKIE_LINES, 3, 2);
    add(lines, random, "X-Okapi-User-Id", USER_LINES, 2, 4);
    Collections.shuffle(lines, random);
    return lines;
  }

  /** Adds up to {@code most} lines named {@code name}, each present with odds 1 in {@code odds}. */
  private static void add(
      List<Map.Entry<String, String>> lines,
      Random random,
      String name,
      String[] values,
      int most,
      int odds) {
    for (int i = 0; i < most; i++) {
      if (random.nextInt(odds) == 0) {
        lines.add(Map.entry(name, values[random.nextInt(values.length)]));
      }
    }
  }

  /**
   * Sends the lines as they are, on a keep-alive connection of each gateway's (a new one after a
   * close).
   */
  private String send(GatewayFixture gw, List<Map.Entry<String, String>> lines) {
    RawClient connection =
        connections.computeIfAbsent(gw, g -> RawClient.connect(g.gateway().port()));
    StringBuilder request =
        new StringBuilder("GET /items HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n");
    lines.forEach(l -> request.append(l.getKey()).append(": ").append(l.getValue()).append("\r\n"));
    try {
      RawClient.Response response = connection.send(request.append("\r\n").toString()).response();
      if ("close".equals(response.head().headers().get("connection"))) {
        connections.remove(gw).close();
      }
      return response.status() + " " + response.body();
    } catch (IOException e) {
      connections.remove(gw).close();
      return "no answer: " + e;
    }
  }
}
