package io.okapigw.core.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.core.bulkhead.TenantBulkhead.Permit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bulkhead's claims under many threads at once, randomized: never more requests of a tenant in
 * flight than its limit, every place given back, and a rate never exceeded over the clock's time.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BulkheadStressTest {

  private static final int THREADS = 8;
  private static final int ROUNDS = 20_000;

  @Test
  void manyThreads_neverMoreInFlightThanTheLimitNorAnonymousThanTheirShare_everyPlaceGivenBack()
      throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    int limit = 5;
    TenantBulkhead bulkhead =
        TenantBulkhead.create(
            new BulkheadOptions(0, 0, Map.of("t1", limit, "t2", 3), Map.of(), 25),
            registry,
            System::nanoTime);
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger anonymousInside = new AtomicInteger();
    AtomicInteger anonymousMost = new AtomicInteger();
    AtomicLong admitted = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    AtomicLong attempts = new AtomicLong();

    run(
        random -> {
          String tenant = random.nextBoolean() ? "t1" : "t3";
          if (tenant.equals("t1")) {
            attempts.incrementAndGet();
          }
          boolean anonymous = random.nextInt(3) == 0;
          Permit permit;
          try {
            permit = bulkhead.admit(tenant, anonymous);
          } catch (TooBusy e) {
            refused.incrementAndGet();
            return;
          }
          if (tenant.equals("t1")) {
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            if (anonymous) {
              anonymousMost.accumulateAndGet(anonymousInside.incrementAndGet(), Math::max);
            }
            LockSupport.parkNanos(random.nextInt(50_000)); // held a while: threads overlap
            if (anonymous) {
              anonymousInside.decrementAndGet();
            }
            inside.decrementAndGet();
            admitted.incrementAndGet();
          }
          permit.release();
          permit.release(); // a second release gives nothing back twice
        });

    assertThat(most.get()).isBetween(1, limit);
    assertThat(anonymousMost.get()).as("anonymous: 25 % of 5, rounded up").isBetween(1, 2);
    assertThat(refused.get()).as("refusals, all of t1").isPositive();
    assertThat(admitted.get() + refused.get()).isEqualTo(attempts.get());
    assertThat(registry.get("okapi.tenant.requests.in.flight").tag("tenant", "t1").gauge().value())
        .isZero();
    assertThat(registry.get("okapi.tenant.requests.in.flight").tag("tenant", "t3").gauge().value())
        .isZero();
    assertThat(rejected(registry, "in-flight") + rejected(registry, "anonymous-in-flight"))
        .isEqualTo(refused.get());
    assertThat(rejected(registry, "anonymous-in-flight")).isPositive();
  }

  @Test
  void manyThreads_rate_neverMoreThanItsTokensOverTheClocksTime() throws Exception {
    AtomicLong clock = new AtomicLong();
    int rate = 50;
    TenantBulkhead bulkhead =
        TenantBulkhead.create(
            new BulkheadOptions(0, rate, Map.of(), Map.of(), 25),
            new SimpleMeterRegistry(),
            clock::get);
    AtomicLong admitted = new AtomicLong();

    run(
        random -> {
          if (random.nextInt(100) == 0) {
            clock.addAndGet(random.nextInt(2_000_000)); // up to 2 ms
          }
          try {
            bulkhead.admit("t1", false).release();
            admitted.incrementAndGet();
          } catch (TooBusy e) {
            assertThat(e.retryAfterSeconds()).isEqualTo(1);
          }
        });

    double seconds = clock.get() / 1e9;
    assertThat(admitted.get())
        .as("admitted over %.3f s of the clock", seconds)
        .isLessThanOrEqualTo(rate + (long) Math.ceil(seconds * rate))
        .isGreaterThanOrEqualTo(rate + (long) Math.floor(seconds * rate) - 2);
  }

  private static double rejected(SimpleMeterRegistry registry, String limit) {
    return registry
        .get("okapi.tenant.requests.rejected")
        .tag("tenant", "t1")
        .tag("limit", limit)
        .counter()
        .count();
  }

  private interface Step {
    void run(Random random);
  }

  private static void run(Step step) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        long seed = new Random().nextLong();
        done.add(
            pool.submit(
                () -> {
                  Random random = new Random(seed);
                  for (int i = 0; i < ROUNDS; i++) {
                    step.run(random);
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get(50, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
