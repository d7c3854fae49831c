package io.okapigw.authtoken.bench;

import io.okapigw.authtoken.Stores;
import io.okapigw.authtoken.password.PasswordHasher;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.UserRecord;
import io.okapigw.testsupport.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark of the authtoken module (not run by {@code mvn verify}): login storms of N distinct
 * users logging in at once, and filter decisions per second for a valid token on 1 and 64
 * connections, per store. The module runs as its fat jar in a child process on 127.0.0.1;
 * PostgreSQL is the test server of {@link TestPostgres}. Bounded in count and time. See {@code
 * authtoken-module/bench.sh} and {@code docs/benchmarks-authtoken.md}.
 *
 * <p>Options: {@code --stores json,postgresql}, {@code --sizes 100,500,1000,5000,10000}, {@code
 * --iterations 600000} (PBKDF2 cost), {@code --filter-seconds 10}.
 */
public final class AuthtokenBench {
  static final String TENANT = "bench";
  static final String PASSWORD = "bench-password";
  static final String PERMISSION = "bench.perm";
  private static final long STORM_TIMEOUT_MINUTES = 60;
  private static final int MAX_FILTER_REQUESTS = 2_000_000;

  private AuthtokenBench() {}

  public static void main(String[] args) throws Exception {
    List<String> stores = List.of(arg(args, "--stores", "json,postgresql").split(","));
    String sizeList = arg(args, "--sizes", "100,500,1000,5000,10000");
    int[] sizes =
        "none".equals(sizeList)
            ? new int[0]
            : Arrays.stream(sizeList.split(",")).mapToInt(Integer::parseInt).toArray();
    int iterations = Integer.parseInt(arg(args, "--iterations", "600000"));
    long filterSeconds = Long.parseLong(arg(args, "--filter-seconds", "10"));
    Path jar = Path.of(arg(args, "--jar", "target/authtoken-module-fat.jar"));
    System.out.printf(
        "# %s, %d cores, Java %s, load %s, PBKDF2 iterations %d%n",
        Instant.now(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        load(),
        iterations);
    Vertx vertx = Vertx.vertx();
    try {
      for (String store : stores) {
        runStore(vertx, store, jar, sizes, iterations, filterSeconds);
      }
    } finally {
      vertx.close().await();
    }
  }

  private static void runStore(
      Vertx vertx, String store, Path jar, int[] sizes, int iterations, long filterSeconds)
      throws Exception {
    Path dir = Files.createTempDirectory("authtoken-bench");
    String spec =
        "json".equals(store) ? "json:" + dir.resolve("store") : TestPostgres.get().createDatabase();
    int users = Arrays.stream(sizes).max().orElse(1);
    seed(vertx, spec, users, iterations);
    List<String> args =
        List.of(
            "--store",
            spec,
            "--signing-key-file",
            dir.resolve("signing.key").toString(),
            "--password-hash-iterations",
            String.valueOf(iterations));
    try (ServerProcess server = ServerProcess.start(jar, dir, args)) {
      System.out.printf("%n## store %s (server pid %d)%n%n", store, server.pid());
      storms(vertx, server.port, sizes);
      filter(vertx, server.port, filterSeconds);
    } finally {
      delete(dir);
    }
  }

  private static void delete(Path dir) throws java.io.IOException {
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private static void storms(Vertx vertx, int port, int[] sizes) throws Exception {
    if (sizes.length == 0) {
      return;
    }
    System.out.println(
        "| concurrent logins | ok | failed | total time (s) | time per login (ms) "
            + "| latency p50 (ms) | latency p99 (ms) | max (ms) |");
    System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (int n : sizes) {
      LoginStorm.Result r = LoginStorm.run(vertx, port, TENANT, n, STORM_TIMEOUT_MINUTES);
      System.out.printf(
          Locale.ROOT,
          "| %d | %d | %d %s | %.1f | %.2f | %.0f | %.0f | %.0f |%n",
          n,
          r.ok(),
          r.logins() - r.ok(),
          r.failures().isEmpty() ? "" : r.failures(),
          r.totalSeconds(),
          r.totalSeconds() * 1000 / n,
          r.latencies().percentileMillis(50),
          r.latencies().percentileMillis(99),
          r.latencies().percentileMillis(100));
    }
  }

  private static void filter(Vertx vertx, int port, long seconds) throws Exception {
    String token = LoginStorm.token(vertx, port, TENANT, "user0");
    // warm-up of both JVMs (the client's JIT matters as much as the server's)
    FilterLoad.run(vertx, port, TENANT, token, 64, Math.min(seconds, 5), MAX_FILTER_REQUESTS);
    FilterLoad.run(vertx, port, TENANT, token, 1, Math.min(seconds, 5), MAX_FILTER_REQUESTS);
    System.out.println();
    System.out.println(
        "| filter connections | decisions | non-202 | decisions/s | p50 (ms) | p99 (ms) | max (ms) |");
    System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
    for (int connections : new int[] {1, 64}) {
      FilterLoad.Result r =
          FilterLoad.run(vertx, port, TENANT, token, connections, seconds, MAX_FILTER_REQUESTS);
      System.out.printf(
          Locale.ROOT,
          "| %d | %d | %d | %.0f | %.3f | %.3f | %.1f |%n",
          connections,
          r.requests(),
          r.non202(),
          r.perSecond(),
          r.latencies().percentileMillis(50),
          r.latencies().percentileMillis(99),
          r.latencies().percentileMillis(100));
    }
  }

  /** Creates users user0..userN-1 directly in the store, all with one precomputed hash. */
  private static void seed(Vertx vertx, String spec, int users, int iterations) {
    PasswordHasher hasher = new PasswordHasher(vertx, new PasswordOptions(iterations, 1));
    String hash = hasher.hash(PASSWORD).await();
    hasher.close().await();
    AuthStore store = Stores.open(vertx, spec).await();
    for (int from = 0; from < users; from += 1000) {
      List<Future<Void>> batch = new ArrayList<>();
      for (int i = from; i < Math.min(users, from + 1000); i++) {
        batch.add(
            store.insertUser(
                new UserRecord(TENANT, "id-" + i, "user" + i, true, hash, List.of(PERMISSION))));
      }
      Future.all(batch).await();
    }
    store.close().await();
  }

  private static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (Exception e) {
      return "?";
    }
  }

  private static String arg(String[] args, String name, String fallback) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return fallback;
  }

  static JsonObject credentials(String username) {
    return new JsonObject().put("username", username).put("password", PASSWORD);
  }
}
