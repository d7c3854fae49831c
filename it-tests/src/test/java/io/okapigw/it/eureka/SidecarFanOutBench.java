package io.okapigw.it.eureka;

import static io.okapigw.it.eureka.SideBySide.LIBRARIAN;
import static io.okapigw.it.eureka.SideBySide.TENANT;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.perf.kit.latency.Latencies;
import io.okapigw.perf.kit.latency.LatencyStats;
import io.okapigw.perf.kit.process.ListeningPid;
import io.okapigw.perf.kit.process.ProcStat;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark (issue 46 item 4, run by {@code perf/bench/vs-sidecar.sh}; not a test: surefire's
 * default includes do not name it): a check-out-like fan-out — one client request {@code GET
 * /checkout?n=N} to mod-caller, which makes N module-to-module calls to mod-things in a row — for
 * one Eureka tenant, through real folio-module-sidecars (one per module) and through our gateway,
 * same Keycloak, same realm, same modules ({@link SideBySide}). Slices alternate between the two
 * sides so both see the same machine. Per side: Keycloak calls (counted at the proxy each side
 * reaches Keycloak through), CPU and resident memory of all gateway-side processes (the two sidecar
 * JVMs; our gateway's JVM), p50/p99, requests per second; then one role revocation polled on both:
 * how long the revoked role is still granted. Settings (system properties): {@code bench.n} (5),
 * {@code bench.clients} (4), {@code bench.users} (20), {@code bench.slice} (200 requests), {@code
 * bench.slices} (3 per side), {@code bench.warmup} (300 requests per side), {@code
 * bench.token-life} (seconds, 60, for the revocation only), {@code bench.out} (a file the table is
 * also written to).
 */
@ExtendWith({EurekaCheck.class, SidecarCheck.class})
@Timeout(value = 40, unit = TimeUnit.MINUTES)
class SidecarFanOutBench {

  private static final int N = Integer.getInteger("bench.n", 5);
  private static final int CLIENTS = Integer.getInteger("bench.clients", 4);
  private static final int USERS = Integer.getInteger("bench.users", 20);
  private static final int SLICE = Integer.getInteger("bench.slice", 200);
  private static final int SLICES = Integer.getInteger("bench.slices", 3);
  private static final int WARMUP = Integer.getInteger("bench.warmup", 300);
  private static final int TOKEN_LIFE = Integer.getInteger("bench.token-life", 60);

  @TempDir static Path dir;

  private static SideBySide sides;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  static void start() throws Exception {
    sides = SideBySide.start(dir, false, List.of());
  }

  @AfterAll
  static void stop() {
    if (sides != null) {
      sides.close();
    }
  }

  /** One side's measure over its slices. */
  static final class Side {
    final String name;
    final String checkout;
    final String things;
    final List<Long> pids;
    final KeycloakCounter keycloak;
    final Latencies latencies = Latencies.of();

    /** Non-200 answers by phase and status (or the client's exception), and the first of each. */
    final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();

    final Map<String, String> firstError = new ConcurrentHashMap<>();
    long requests;
    long failures;
    long wallNanos;
    long cpuNanos;
    long decisions;
    long keycloakCalls;
    long maxRssBytes;

    Side(String name, String checkout, String things, List<Long> pids, KeycloakCounter keycloak) {
      this.name = name;
      this.checkout = checkout;
      this.things = things;
      this.pids = pids;
      this.keycloak = keycloak;
    }
  }

  @Test
  void fanOut_throughTheSidecarsAndThroughOurs() throws Exception {
    String load = Files.readString(Path.of("/proc/loadavg")).trim();
    List<String> tokens = new ArrayList<>();
    for (int i = 0; i < USERS; i++) {
      String name = "user" + i;
      sides.realm.user(name, name + "-password", UUID.randomUUID().toString(), LIBRARIAN);
      tokens.add(sides.realm.login(name, name + "-password").access());
    }
    Side sidecars =
        new Side(
            "sidecars (2 JVMs)",
            sides.callerSidecar.url(),
            sides.thingsSidecar.url(),
            List.of(sides.callerSidecar.pid(), sides.thingsSidecar.pid()),
            sides.sidecarsKeycloak);
    Side ours =
        new Side(
            "ours (1 node)",
            sides.oursUrl(),
            sides.oursUrl(),
            List.of(pid(sides.oursUrl())),
            sides.oursKeycloak);
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    try {
      for (Side side : List.of(sidecars, ours)) {
        run(pool, side, tokens, WARMUP, false);
      }
      for (int slice = 0; slice < SLICES; slice++) {
        for (Side side : slice % 2 == 0 ? List.of(sidecars, ours) : List.of(ours, sidecars)) {
          run(pool, side, tokens, SLICE, true);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    String[] revocation = revocation(sidecars, ours);
    String loadAfter = Files.readString(Path.of("/proc/loadavg")).trim();
    String table = table(List.of(sidecars, ours), revocation, load, loadAfter);
    System.out.println(table);
    String out = System.getProperty("bench.out");
    if (out != null) {
      Files.writeString(Path.of(out), table);
    }
    for (Side side : List.of(sidecars, ours)) {
      assertThat(side.latencies.stats().count()).as(side.name + ": answered 200").isPositive();
    }
  }

  private static long pid(String url) {
    int port = URI.create(url).getPort();
    return ListeningPid.ofJvm(port)
        .orElseThrow(() -> new IllegalStateException("no pid on " + port));
  }

  /** Sends {@code count} check-outs from {@link #CLIENTS} clients; measures them if asked. */
  private static void run(
      ExecutorService pool, Side side, List<String> tokens, int count, boolean measure)
      throws Exception {
    AtomicInteger next = new AtomicInteger();
    AtomicLong failures = new AtomicLong();
    long decisions = side.keycloak.count(KeycloakCounter.DECISION);
    long calls = side.keycloak.total();
    long cpu = ProcStat.cpuNanos(side.pids);
    long start = System.nanoTime();
    List<Future<?>> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      clients.add(
          pool.submit(
              () -> {
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                  String token = tokens.get(i % tokens.size());
                  long t0 = System.nanoTime();
                  Answer answer = checkout(side.checkout, token);
                  long took = System.nanoTime() - t0;
                  if (answer.status() != 200) {
                    if (measure) {
                      failures.incrementAndGet();
                    }
                    String key = (measure ? "" : "warm-up ") + answer.kind();
                    side.errors.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
                    side.firstError.putIfAbsent(
                        key,
                        String.format(
                            Locale.ROOT, "after %.0f ms: %s", took / 1e6, answer.detail()));
                  } else if (measure) {
                    side.latencies.record(took);
                  }
                }
                return null;
              }));
    }
    for (Future<?> f : clients) {
      f.get(10, TimeUnit.MINUTES);
    }
    if (measure) {
      side.wallNanos += System.nanoTime() - start;
      side.cpuNanos += ProcStat.cpuNanos(side.pids) - cpu;
      side.requests += count;
      side.decisions += side.keycloak.count(KeycloakCounter.DECISION) - decisions;
      side.keycloakCalls += side.keycloak.total() - calls;
      long rss = side.pids.stream().mapToLong(ProcStat::rssBytes).sum();
      side.maxRssBytes = Math.max(side.maxRssBytes, rss);
    }
    side.failures += failures.get();
  }

  /**
   * A client's answer: its status, or -1 and the exception the client met.
   *
   * @param status the HTTP status, -1 when there was none
   * @param detail the body's start (not 200) or the exception
   */
  record Answer(int status, String detail) {
    String kind() {
      return status >= 0 ? String.valueOf(status) : detail.replaceFirst(":.*", "");
    }
  }

  private static Answer checkout(String base, String token) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + "/checkout?n=" + N))
            .header("X-Okapi-Tenant", TENANT)
            .header("Authorization", "Bearer " + token)
            .timeout(Duration.ofSeconds(60))
            .GET()
            .build();
    try {
      HttpResponse<String> answer = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      String body = answer.body();
      return new Answer(
          answer.statusCode(),
          answer.statusCode() == 200
              ? ""
              : answer.headers().map() + " " + body.substring(0, Math.min(300, body.length())));
    } catch (IOException e) {
      return new Answer(-1, e.getClass().getSimpleName() + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(-1, "InterruptedException: " + e.getMessage());
    }
  }

  private static int things(String base, String token) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + "/things"))
            .header("X-Okapi-Tenant", TENANT)
            .header("Authorization", "Bearer " + token)
            .timeout(Duration.ofSeconds(30))
            .GET()
            .build();
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /**
   * One user's role revoked while both sides granted it: polled on both in turn (bounded: token
   * life + 90 s, as a token is taken up to a minute past its exp, and 1,000,000 rounds) until each
   * refuses. The realm's token life is {@link #TOKEN_LIFE} for this login (the sidecar keeps a
   * grant until the token expires).
   *
   * @return per side: seconds until the first answer not 200 and that answer (403: the revocation
   *     seen; 401: the token expired first), or "still granted after S s"
   */
  private static String[] revocation(Side sidecars, Side ours) throws Exception {
    sides.realm.lifespan(TOKEN_LIFE);
    sides.realm.user("revoked", "revoked-password", UUID.randomUUID().toString(), LIBRARIAN);
    String token = sides.realm.login("revoked", "revoked-password").access();
    sides.realm.lifespan(600);
    for (Side side : List.of(sidecars, ours)) {
      assertThat(things(side.things, token)).as(side.name).isEqualTo(200);
      assertThat(things(side.things, token)).as(side.name).isEqualTo(200);
    }
    long start = System.nanoTime();
    sides.realm.revoke("revoked", LIBRARIAN);
    long bound = TimeUnit.SECONDS.toNanos(TOKEN_LIFE + 90L);
    Long[] refused = new Long[2];
    int[] answer = new int[2];
    List<Side> both = List.of(sidecars, ours);
    for (int round = 0; round < 1_000_000 && (refused[0] == null || refused[1] == null); round++) {
      if (System.nanoTime() - start > bound) {
        break;
      }
      for (int i = 0; i < 2; i++) {
        if (refused[i] == null) {
          int status = things(both.get(i).things, token);
          if (status != 200) {
            refused[i] = System.nanoTime() - start;
            answer[i] = status;
          }
        }
      }
    }
    long polled = System.nanoTime() - start;
    String[] shown = new String[2];
    for (int i = 0; i < 2; i++) {
      shown[i] =
          refused[i] == null
              ? String.format(Locale.ROOT, "still granted after %.1f s", polled / 1e9)
              : String.format(
                  Locale.ROOT,
                  "%.1f s (then %d%s)",
                  refused[i] / 1e9,
                  answer[i],
                  answer[i] == 401 ? ": the token expired, the role never refused" : "");
    }
    return shown;
  }

  private static String table(List<Side> all, String[] revocation, String load, String loadAfter) {
    StringBuilder t = new StringBuilder();
    t.append(
        String.format(
            Locale.ROOT,
            "fan-out: GET /checkout?n=%d (1 client request, %d module-to-module calls), %d clients,"
                + " %d users, %d x %d measured requests per side after %d warm-up; load average"
                + " before %s, after %s%n%n",
            N,
            N,
            CLIENTS,
            USERS,
            SLICES,
            SLICE,
            WARMUP,
            load,
            loadAfter));
    t.append(
        "| side | requests/s | p50 ms | p99 ms | Keycloak decisions per request | Keycloak calls"
            + " per request | CPU ms per request | RSS of its processes MB | revoked role granted"
            + " for | non-200 of the measured |\n");
    t.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int i = 0; i < all.size(); i++) {
      Side s = all.get(i);
      LatencyStats stats = s.latencies.stats();
      t.append(
          String.format(
              Locale.ROOT,
              "| %s | %.0f | %.1f | %.1f | %.3f | %.3f | %.2f | %d | %s | %d |%n",
              s.name,
              s.requests / (s.wallNanos / 1e9),
              stats.p50(),
              stats.p99(),
              s.decisions / (double) s.requests,
              s.keycloakCalls / (double) s.requests,
              s.cpuNanos / 1e6 / s.requests,
              s.maxRssBytes / (1024 * 1024),
              revocation[i],
              s.failures));
    }
    for (Side s : all) {
      t.append("\nnon-200 answers through ").append(s.name).append(": ");
      t.append(s.errors.isEmpty() ? "none" : new TreeMap<>(s.errors).toString()).append('\n');
      new TreeMap<>(s.firstError)
          .forEach((k, v) -> t.append("- first ").append(k).append(' ').append(v).append('\n'));
    }
    t.append("\nKeycloak calls by kind: ");
    for (Side s : all) {
      Map<String, Long> counts = s.keycloak.counts();
      t.append(s.name).append(' ').append(counts).append("; ");
    }
    t.append('\n');
    return t.toString();
  }
}
