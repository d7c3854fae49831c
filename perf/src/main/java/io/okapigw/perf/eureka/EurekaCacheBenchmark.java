package io.okapigw.perf.eureka;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.cache.AuthCacheKey;
import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.cache.AuthDecision;
import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.perf.kit.latency.Latencies;
import io.okapigw.perf.kit.latency.LatencyStats;
import io.okapigw.testsupport.eureka.EurekaRealm;
import io.okapigw.testsupport.eureka.EurekaRealm.Tokens;
import io.okapigw.testsupport.eureka.KeycloakServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code eureka-cache}: Keycloak decisions for N users × M endpoints with token refreshes, through
 * the gateway's decision cache and through a cache of folio-module-sidecar's design, side by side
 * in one run against one real Keycloak (a realm set up as FOLIO's Eureka sets it up). Each request
 * (a user, an endpoint, uniformly at random) is decided by both, one after the other; each counts
 * its own Keycloak calls. Users refresh their token when it has less than a fifth of its life left,
 * as Stripes does before it expires. The sidecar's design, from its source: Caffeine, at most 250
 * entries, key {@code {path}#{METHOD}#{tenant}#{user_id}#{sid}#{exp}}, grants only, kept until
 * {@code exp} − 5 s, concurrent misses each calling Keycloak. Ours: {@link AuthCache} with its
 * defaults, key tenant, method, path, user and session. Bounded by {@code --requests}.
 */
public final class EurekaCacheBenchmark {

  public static final Setting<String> KEYCLOAK =
      Setting.text("keycloak", null, "URL")
          .about(
              "a running Keycloak (loopback; master admin admin/admin); unset: one is started from"
                  + " -Dokapigw.keycloak.home");

  public static final Setting<Integer> USERS =
      Setting.integer("users", 100, 1, 10_000).about("users, each logged in once");

  public static final Setting<Integer> ENDPOINTS =
      Setting.integer("endpoints", 30, 1, 1000).about("endpoints, each its own resource");

  public static final Setting<Integer> REQUESTS =
      Setting.integer("requests", 20_000, 1, 10_000_000).about("requests, each decided by both");

  public static final Setting<Integer> CONCURRENCY =
      Setting.integer("concurrency", 8, 1, 256).about("requests in flight");

  public static final Setting<Duration> TOKEN_LIFE =
      Setting.duration(
              "token-life", Duration.ofSeconds(60), Duration.ofSeconds(10), Duration.ofHours(1))
          .about("the realm's access token lifespan (FOLIO's: 600 s)");

  /** The settings of {@code eureka-cache}. */
  public static final SettingsSpec SPEC =
      SettingsSpec.of(KEYCLOAK, USERS, ENDPOINTS, REQUESTS, CONCURRENCY, TOKEN_LIFE);

  private static final Logger out = LoggerFactory.getLogger("io.okapigw.cli");
  private static final String TENANT = "bench";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** One side: its Keycloak calls, hits and decision times. */
  private static final class Side {
    final String name;
    final AtomicLong keycloakCalls = new AtomicLong();
    final AtomicLong requests = new AtomicLong();
    final Latencies latencies = new Latencies();

    Side(String name) {
      this.name = name;
    }
  }

  /** A logged-in user: its session's current tokens. */
  private static final class User {
    final String name;
    volatile Tokens tokens;
    volatile long exp;

    User(String name, Tokens tokens) {
      this.name = name;
      set(tokens);
    }

    void set(Tokens t) {
      tokens = t;
      exp = new JsonObject(claims(t.access())).getLong("exp");
    }
  }

  private EurekaCacheBenchmark() {}

  /** Runs it and prints the table. */
  public static void run(Settings settings) {
    try {
      measure(settings);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      LoggerFactory.getLogger(EurekaCacheBenchmark.class).error("eureka-cache failed", e);
      System.exit(1);
    }
  }

  private static void measure(Settings settings) throws Exception {
    String url = settings.get(KEYCLOAK);
    KeycloakServer started = null;
    if (url == null) {
      started =
          KeycloakServer.start(Files.createTempDirectory("eureka-cache"), Duration.ofMinutes(8));
      url = started.url();
    }
    try {
      bench(url, settings);
    } finally {
      if (started != null) {
        started.close();
      }
    }
  }

  private static void bench(String keycloak, Settings settings) throws Exception {
    int users = settings.get(USERS);
    int endpoints = settings.get(ENDPOINTS);
    String tenant = TENANT + Long.toHexString(System.nanoTime() & 0xffffff);
    EurekaRealm realm = EurekaRealm.create(keycloak, tenant);
    realm.lifespan((int) settings.get(TOKEN_LIFE).toSeconds());
    JsonArray handlers = new JsonArray();
    List<String> granted = new ArrayList<>();
    for (int e = 0; e < endpoints; e++) {
      handlers.add(
          new JsonObject()
              .put("methods", new JsonArray().add("GET"))
              .put("pathPattern", "/bench/e" + e)
              .put("permissionsRequired", new JsonArray().add("bench.e" + e)));
      granted.add("GET /bench/e" + e);
    }
    realm.entitle(
        new JsonObject()
            .put("id", "mod-bench-1.0.0")
            .put(
                "provides",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("id", "bench")
                            .put("version", "1.0")
                            .put("handlers", handlers))));
    realm.role("Bench", granted);
    List<User> logged = new ArrayList<>();
    for (int u = 0; u < users; u++) {
      String name = "user" + u;
      realm.user(name, "pw-" + name, UUID.randomUUID().toString(), "Bench");
      logged.add(new User(name, realm.login(name, "pw-" + name)));
    }
    out.info(
        "realm {}: {} users, {} endpoints; {} requests",
        tenant,
        users,
        endpoints,
        settings.get(REQUESTS));

    Side ours = new Side("gateway (AuthCache)");
    Side sidecar = new Side("sidecar design (250, exp-keyed)");
    AuthCache cache = AuthCache.create(AuthCacheOptions.defaults(), new SimpleMeterRegistry());
    Cache<String, Long> sidecarCache =
        Caffeine.newBuilder()
            .maximumSize(250)
            .expireAfter(
                new Expiry<String, Long>() {
                  @Override
                  public long expireAfterCreate(String k, Long exp, long now) {
                    return Math.max(
                        0,
                        TimeUnit.SECONDS.toNanos(exp)
                            - TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis())
                            - TimeUnit.SECONDS.toNanos(5));
                  }

                  @Override
                  public long expireAfterUpdate(String k, Long exp, long now, long left) {
                    return left;
                  }

                  @Override
                  public long expireAfterRead(String k, Long exp, long now, long left) {
                    return left;
                  }
                })
            .build();
    AtomicLong refreshes = new AtomicLong();
    int requests = settings.get(REQUESTS);
    int concurrency = settings.get(CONCURRENCY);
    ExecutorService pool = Executors.newFixedThreadPool(concurrency);
    List<CompletableFuture<Void>> workers = new ArrayList<>();
    AtomicLong left = new AtomicLong(requests);
    long seed = 42;
    for (int w = 0; w < concurrency; w++) {
      SplittableRandom random = new SplittableRandom(seed + w);
      workers.add(
          CompletableFuture.runAsync(
              () -> {
                while (left.getAndDecrement() > 0) {
                  User user = logged.get(random.nextInt(logged.size()));
                  String path = "/bench/e" + random.nextInt(endpoints);
                  refreshIfOld(realm, user, settings.get(TOKEN_LIFE), refreshes);
                  String token = user.tokens.access();
                  JsonObject claims = new JsonObject(claims(token));
                  decideOurs(ours, cache, keycloak, tenant, path, token, claims);
                  decideSidecar(sidecar, sidecarCache, keycloak, tenant, path, token, claims);
                }
              },
              pool));
    }
    CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).join();
    pool.shutdown();
    print(settings, ours, sidecar, refreshes.get(), users, endpoints);
  }

  private static void refreshIfOld(
      EurekaRealm realm, User user, Duration life, AtomicLong refreshes) {
    long now = System.currentTimeMillis() / 1000;
    if (user.exp - now < life.toSeconds() / 5) {
      synchronized (user) {
        if (user.exp - System.currentTimeMillis() / 1000 < life.toSeconds() / 5) {
          try {
            user.set(realm.refresh(user.tokens));
            refreshes.incrementAndGet();
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
      }
    }
  }

  private static void decideOurs(
      Side side,
      AuthCache cache,
      String keycloak,
      String tenant,
      String path,
      String token,
      JsonObject claims) {
    long start = System.nanoTime();
    AuthCacheKey key =
        new AuthCacheKey(
            tenant, "GET", path, claims.getString("user_id"), null, claims.getString("sid"));
    AuthDecision decision =
        cache
            .get(
                key,
                k -> {
                  side.keycloakCalls.incrementAndGet();
                  return uma(keycloak, tenant, path + "#GET", token)
                      .thenApply(
                          status ->
                              status == 200
                                  ? AuthDecision.grant(200, null, k.userId(), null, null)
                                  : AuthDecision.refusal(status, "", ""));
                })
            .join();
    side.latencies.record(System.nanoTime() - start);
    side.requests.incrementAndGet();
    check(decision.status());
  }

  private static void decideSidecar(
      Side side,
      Cache<String, Long> cache,
      String keycloak,
      String tenant,
      String path,
      String token,
      JsonObject claims) {
    long start = System.nanoTime();
    long exp = claims.getLong("exp");
    String key =
        path
            + "#GET#"
            + tenant
            + "#"
            + claims.getString("user_id")
            + "#"
            + claims.getString("sid")
            + "#"
            + exp;
    if (cache.getIfPresent(key) == null) {
      side.keycloakCalls.incrementAndGet();
      int status = uma(keycloak, tenant, path + "#GET", token).join();
      check(status);
      if (status == 200) {
        cache.put(key, exp);
      }
    }
    side.latencies.record(System.nanoTime() - start);
    side.requests.incrementAndGet();
  }

  private static void check(int status) {
    if (status != 200) {
      throw new IllegalStateException("Keycloak answered " + status + " to a granted request");
    }
  }

  /** The sidecar's decision request. */
  private static CompletableFuture<Integer> uma(
      String keycloak, String tenant, String permission, String token) {
    String form =
        "grant_type="
            + URLEncoder.encode(
                "urn:ietf:params:oauth:grant-type:uma-ticket", StandardCharsets.UTF_8)
            + "&permission="
            + URLEncoder.encode(permission, StandardCharsets.UTF_8)
            + "&audience="
            + URLEncoder.encode(tenant + "-login-application", StandardCharsets.UTF_8)
            + "&response_mode=decision";
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(keycloak + "/realms/" + tenant + "/protocol/openid-connect/token"))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    return HTTP.sendAsync(request, HttpResponse.BodyHandlers.discarding())
        .thenApply(HttpResponse::statusCode);
  }

  private static String claims(String token) {
    return new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
  }

  private static void print(
      Settings settings, Side ours, Side sidecar, long refreshes, int users, int endpoints) {
    out.info(
        "{} users × {} endpoints, {} requests, token life {}, {} token refreshes",
        users,
        endpoints,
        settings.get(REQUESTS),
        settings.get(TOKEN_LIFE),
        refreshes);
    out.info(
        "| cache | Keycloak calls | hit ratio | decision p50 ms | p90 ms | p99 ms | mean ms |");
    out.info("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (Side side : List.of(ours, sidecar)) {
      LatencyStats s = side.latencies.stats();
      double hit = 1.0 - (double) side.keycloakCalls.get() / side.requests.get();
      out.info(
          String.format(
              java.util.Locale.ROOT,
              "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f |",
              side.name,
              side.keycloakCalls.get(),
              hit,
              s.p50(),
              s.p90(),
              s.p99(),
              s.mean()));
    }
    out.info(
        String.format(
            java.util.Locale.ROOT,
            "Keycloak calls, sidecar design / ours: %.1fx",
            (double) sidecar.keycloakCalls.get() / Math.max(1, ours.keycloakCalls.get())));
  }
}
