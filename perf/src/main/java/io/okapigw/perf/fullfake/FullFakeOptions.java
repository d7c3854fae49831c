package io.okapigw.perf.fullfake;

import io.okapigw.config.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Settings of the {@code fullfake} command; {@link #from(Settings)} validates them and names the
 * bad flag.
 *
 * @param clients the client counts of the matrix (default 1,5,10,15,20)
 * @param sizes the body sizes of the matrix (default 1KB,16KB,256KB,1MB,16MB,256MB)
 * @param requests requests per cell and route (default 2000), fewer for big bodies
 * @param maxBytesPerCell bodies per cell and route are cut to move at most this (default 1GB)
 * @param minRequests but never fewer than this (default 4)
 * @param cellTimeLimit hard limit per cell and route (default 60s)
 * @param warmup requests per route before measuring (default 1000)
 * @param gatewayHeap the gateway's {@code -Xmx} (default 256m)
 * @param inProcess run everything in this JVM (tests) instead of separate processes
 * @param jars the gateway and authtoken fat jars (separate processes only)
 */
public record FullFakeOptions(
    List<Integer> clients,
    List<Long> sizes,
    int requests,
    long maxBytesPerCell,
    int minRequests,
    Duration cellTimeLimit,
    int warmup,
    String gatewayHeap,
    boolean inProcess,
    Launcher.Jars jars) {

  /** The flags {@code fullfake} knows. */
  public static final Set<String> KEYS =
      Set.of(
          "clients",
          "sizes",
          "requests",
          "max-bytes-per-cell",
          "min-requests",
          "cell-time-limit",
          "warmup",
          "gateway-heap",
          "in-process",
          "gateway-jar",
          "authtoken-jar");

  /**
   * @throws IllegalArgumentException naming the first bad or unknown flag
   */
  public static FullFakeOptions from(Settings settings) {
    settings.checkKnown(KEYS);
    boolean inProcess = settings.bool("in-process", false);
    long maxBytes =
        ByteSize.parse("max-bytes-per-cell", settings.string("max-bytes-per-cell", "1GB"));
    Duration limit = settings.duration("cell-time-limit", Duration.ofSeconds(60));
    if (limit.isZero() || maxBytes <= 0) {
      throw new IllegalArgumentException("cell-time-limit and max-bytes-per-cell must be > 0");
    }
    return new FullFakeOptions(
        BenchFlags.integers(settings, "clients", "1,5,10,15,20", 1, 256),
        BenchFlags.sizes(
            settings, "sizes", "1KB,16KB,256KB,1MB,16MB,256MB", FakeBodyModule.MAX_SIZE),
        settings.integer("requests", 2000, 1, 1_000_000),
        maxBytes,
        settings.integer("min-requests", 4, 1, 1_000_000),
        limit,
        settings.integer("warmup", 1000, 0, 1_000_000),
        BenchFlags.heap(settings, "gateway-heap", "256m"),
        inProcess,
        new Launcher.Jars(
            BenchFlags.jar(settings, "gateway-jar", BenchFlags.DEFAULT_GATEWAY_JAR, !inProcess),
            BenchFlags.jar(
                settings, "authtoken-jar", BenchFlags.DEFAULT_AUTHTOKEN_JAR, !inProcess)));
  }

  /**
   * @return requests per route for bodies of {@code size}: within the byte budget
   */
  public int requestsFor(long size) {
    long byBudget = maxBytesPerCell / Math.max(1, size);
    return (int) Math.min(requests, Math.max(minRequests, byBudget));
  }
}
