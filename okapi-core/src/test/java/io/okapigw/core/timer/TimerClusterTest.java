package io.okapigw.core.timer;

import static io.okapigw.core.timer.TimerFiringTest.START;
import static io.okapigw.core.timer.TimerFiringTest.TIMER_MODULE;
import static io.okapigw.core.timer.TimerFiringTest.every;
import static io.okapigw.core.timer.TimerFiringTest.timerModule;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Ticker;
import io.okapigw.core.Gateway;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.InJvmCluster;
import io.okapigw.core.testing.TestModule;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Three gateway nodes clustered on Hazelcast in this JVM, one fake clock for all: every node arms
 * every timer, yet each run is made once per cluster, also after a node has left; a change made on
 * one node applies on all. And the run claims under concurrent load from every node.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TimerClusterTest {

  private static final int NODES = 3;

  private static final FakeScheduler clock = new FakeScheduler(START);
  private static InJvmCluster cluster;
  private static Vertx moduleVertx;
  private static TestModule module;

  @BeforeAll
  static void start() {
    cluster =
        InJvmCluster.start(
            3,
            vertx ->
                Gateway.start(
                    vertx,
                    GatewayOptions.defaults(0).withInstances(1),
                    Ticker.systemTicker(),
                    clock));
    moduleVertx = Vertx.vertx();
    module =
        TestModule.start(
            moduleVertx,
            router -> router.route().handler(ctx -> ctx.response().setStatusCode(204).end()));
  }

  @AfterAll
  static void stop() {
    cluster.close();
    moduleVertx.close().await();
  }

  private static RequestSpecification node(int i) {
    return cluster.node(i);
  }

  private static int callsAfter(Duration duration) {
    module.drain();
    clock.advance(duration);
    return module.drain().size();
  }

  @Test
  @Order(1)
  void everyNodeArmsTheTimer_yetEachRunIsMadeOnce() {
    assertThat(cluster.gateways()).extracting(Gateway::nodeId).doesNotHaveDuplicates();
    node(0).body("{\"id\":\"diku\"}").post("/_/proxy/tenants").then().statusCode(201);
    node(0)
        .body(timerModule(TIMER_MODULE, every("POST", "/notices", "1", "minute")).encode())
        .post("/_/proxy/modules")
        .then()
        .statusCode(201);
    node(1)
        .body(GatewayFixture.instance(TIMER_MODULE, TIMER_MODULE + "-1", module.url()).encode())
        .post("/_/discovery/modules")
        .then()
        .statusCode(201);
    node(2)
        .body("{\"id\":\"" + TIMER_MODULE + "\"}")
        .post("/_/proxy/tenants/diku/modules")
        .then()
        .statusCode(201);
    assertThat(clock.pending()).as("armed on every node").isEqualTo(NODES);
    assertThat(callsAfter(Duration.ofMinutes(1))).isEqualTo(1);
    assertThat(callsAfter(Duration.ofMinutes(5))).isEqualTo(5);
  }

  @Test
  @Order(2)
  void aPatchOnOneNode_appliesOnEvery() {
    node(1)
        .body("{\"unit\":\"minute\",\"delay\":\"10\"}")
        .patch("/_/proxy/tenants/diku/timers/mod-timer_0")
        .then()
        .statusCode(204);
    node(2)
        .get("/_/proxy/tenants/diku/timers/mod-timer_0")
        .then()
        .statusCode(200)
        .body("modified", org.hamcrest.Matchers.equalTo(true));
    assertThat(clock.pending()).isEqualTo(NODES);
    assertThat(callsAfter(Duration.ofMinutes(30))).isEqualTo(3);
  }

  @Test
  @Order(3)
  void aNodeLeaves_theOthersMakeEachRunOnce() {
    cluster.leave(0);
    assertThat(clock.pending()).as("the node that left armed nothing more").isEqualTo(NODES - 1);
    assertThat(callsAfter(Duration.ofMinutes(30))).isEqualTo(3);
    node(1).delete("/_/proxy/tenants/diku/modules/" + TIMER_MODULE).then().statusCode(204);
    assertThat(clock.pending()).as("disabled on every node").isZero();
    assertThat(callsAfter(Duration.ofMinutes(30))).isZero();
  }

  /**
   * Many threads on every node claim the runs of a few timers at once, each thread running through
   * the runs in order but with random lags, some skipping runs (a node that missed a wake-up): no
   * run is ever claimed twice, and when every thread tries every run, each run is claimed exactly
   * once. Seed: {@code -Dstress.seed}.
   */
  @Test
  @Order(4)
  void runClaims_concurrentOnEveryNode_neverTwice() throws Exception {
    long seed = Long.getLong("stress.seed", System.nanoTime());
    List<RunClaims> claims =
        cluster.vertxes().stream().map(v -> RunClaims.create(v).await()).toList();
    for (boolean skipping : List.of(false, true)) {
      Map<String, AtomicInteger> won = claimConcurrently(claims, new Random(seed), skipping);
      assertThat(won.values())
          .as("seed %d, skipping %s", seed, skipping)
          .allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
      if (!skipping) {
        assertThat(won).as("seed %d: every run claimed", seed).hasSize(TIMERS * RUNS);
      }
    }
  }

  private static final int TIMERS = 3;
  private static final int RUNS = 60;
  private static final int THREADS_PER_NODE = 4;

  private static Map<String, AtomicInteger> claimConcurrently(
      List<RunClaims> claims, Random random, boolean skipping) throws InterruptedException {
    String round = "stress-" + skipping + "-" + random.nextLong();
    Map<String, AtomicInteger> won = new ConcurrentHashMap<>();
    List<Runnable> workers = new ArrayList<>();
    for (RunClaims node : claims) {
      for (int t = 0; t < THREADS_PER_NODE; t++) {
        Random own = new Random(random.nextLong());
        workers.add(
            () -> {
              for (int run = 0; run < RUNS; run++) {
                for (int timer = 0; timer < TIMERS; timer++) {
                  if (skipping && own.nextInt(4) == 0) {
                    continue;
                  }
                  for (int y = own.nextInt(3); y > 0; y--) {
                    Thread.yield();
                  }
                  String key = round + "/" + timer;
                  Instant at = START.plusSeconds(60L * run);
                  if (node.claim(key, at).await()) {
                    won.computeIfAbsent(key + "@" + run, k -> new AtomicInteger())
                        .incrementAndGet();
                  }
                }
              }
            });
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(workers.size());
    CountDownLatch go = new CountDownLatch(1);
    List<java.util.concurrent.Future<Object>> done = new ArrayList<>();
    workers.forEach(
        w ->
            done.add(
                pool.submit(
                    () -> {
                      go.await();
                      w.run();
                      return null;
                    })));
    go.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(2, TimeUnit.MINUTES)).as("workers done").isTrue();
    for (java.util.concurrent.Future<Object> worker : done) {
      try {
        worker.get();
      } catch (ExecutionException e) {
        throw new AssertionError("a worker failed", e.getCause());
      }
    }
    return won;
  }
}
