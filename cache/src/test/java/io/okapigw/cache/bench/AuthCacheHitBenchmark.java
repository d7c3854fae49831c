package io.okapigw.cache.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.cache.AuthCache;
import io.okapigw.cache.AuthCacheKey;
import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.cache.AuthDecision;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Cost of an auth-cache hit through {@link AuthCache#get} (the entry's future already complete),
 * against a plain {@link ConcurrentHashMap#get} on an equal key, with 1 and 2 threads sharing one
 * cache. The lookup key is a distinct instance equal to the stored one, with a realistic
 * ~300-character JWT, as the gateway builds a new key per request.
 *
 * <p>Run: {@code cd /work/main && mvn -B -o -pl cache -Pjmh test-compile exec:exec} (results in
 * docs/benchmarks-cache-jmh.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AuthCacheHitBenchmark {

  private final AtomicInteger loads = new AtomicInteger();
  private final Function<AuthCacheKey, CompletableFuture<AuthDecision>> loader =
      key -> {
        loads.incrementAndGet();
        return CompletableFuture.completedFuture(decision());
      };

  private AuthCache cache;
  private ConcurrentHashMap<AuthCacheKey, AuthDecision> map;
  private AuthCacheKey lookupKey;

  @Setup(Level.Trial)
  public void setUp() {
    cache =
        AuthCache.create(
            AuthCacheOptions.defaults().withTtl(Duration.ofHours(1)), new SimpleMeterRegistry());
    map = new ConcurrentHashMap<>();
    String token =
        jwt(
            "{\"sub\":\"diku_admin\","
                + "\"user_id\":\"a1b2c3d4-0000-4000-8000-000000000001\","
                + "\"type\":\"access\",\"tenant\":\"diku\",\"iat\":1750000000}");
    AuthCacheKey stored = key(token);
    cache.get(stored, loader).join();
    map.put(stored, decision());
    lookupKey = key(new String(token.toCharArray()));
    if (cache.get(lookupKey, loader).join().status() != 202 || loads.get() != 1) {
      throw new IllegalStateException("setup expected one load, then hits");
    }
  }

  @TearDown(Level.Trial)
  public void checkOnlyHits() {
    if (loads.get() != 1) {
      throw new IllegalStateException("benchmark measured misses: " + loads.get() + " loads");
    }
  }

  @Benchmark
  public AuthDecision authCacheHit() {
    return cache.get(lookupKey, loader).getNow(null);
  }

  @Benchmark
  @Threads(2)
  public AuthDecision authCacheHit2Threads() {
    return cache.get(lookupKey, loader).getNow(null);
  }

  @Benchmark
  public AuthDecision concurrentHashMapGet() {
    return map.get(lookupKey);
  }

  @Benchmark
  @Threads(2)
  public AuthDecision concurrentHashMapGet2Threads() {
    return map.get(lookupKey);
  }

  private static AuthCacheKey key(String token) {
    return new AuthCacheKey(
        new String("diku".toCharArray()), "POST", "/circulation/check-out-by-barcode", "", token);
  }

  private static AuthDecision decision() {
    String moduleToken =
        jwt("{\"sub\":\"diku_admin\",\"extra_permissions\":[\"circulation.all\"]}");
    return AuthDecision.grant(
        202,
        moduleToken,
        "a1b2c3d4-0000-4000-8000-000000000001",
        "[\"circulation.check-out-by-barcode.post\"]",
        Map.of("_", moduleToken));
  }

  private static String jwt(String payload) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String header = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";
    return b64.encodeToString(header.getBytes(StandardCharsets.UTF_8))
        + "."
        + b64.encodeToString(payload.getBytes(StandardCharsets.UTF_8))
        + "."
        + b64.encodeToString(new byte[32]);
  }
}
