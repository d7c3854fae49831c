package io.okapigw.core.eureka;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsonwebtoken.Jwts;
import io.okapigw.config.Settings;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.upstream.ModuleCall;
import io.okapigw.testsupport.Await;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The rules of a realm's keys ({@link RealmKeys}) on a fake clock, with {@code
 * eureka.jwks-refetch-min} 1s, {@code eureka.jwks-retry} 10s and {@code eureka.jwks-refresh} 1h:
 * the fetches counted, what waits and what is answered at once.
 */
class RealmKeysTest {

  private final FakeScheduler scheduler = new FakeScheduler(Instant.parse("2026-12-01T00:00:00Z"));
  private final Map<String, KeyPair> published = new ConcurrentHashMap<>();
  private final AtomicInteger fetches = new AtomicInteger();
  private volatile int status = 200;
  private volatile Promise<Void> held;

  private final RealmKeys keys = new RealmKeys(this::certs, options(), timing());

  RealmKeysTest() {
    published.put("k1", Jwts.SIG.RS256.keyPair().build());
  }

  private Future<ModuleCall.Answer> certs(String realm) {
    fetches.incrementAndGet();
    Promise<Void> hold = held;
    return hold == null ? Future.succeededFuture(answer()) : hold.future().map(v -> answer());
  }

  /** What Keycloak answers when the answer is sent. */
  private ModuleCall.Answer answer() {
    JsonArray set = new JsonArray();
    published.forEach((kid, pair) -> set.add(FakeKeycloak.jwk(kid, pair)));
    return new ModuleCall.Answer(
        status,
        MultiMap.caseInsensitiveMultiMap(),
        Buffer.buffer(new JsonObject().put("keys", set).encode()));
  }

  private Future<PublicKey> key(String kid) {
    return keys.key("diku", kid);
  }

  private static int statusOf(Future<?> f) {
    assertThat(f.failed()).as("failed: " + f).isTrue();
    return ((HttpError) f.cause()).status();
  }

  @Test
  void key_fetchFailsForAnUnknownKid_knownKeysKept_noFetchUntilRetry() {
    assertThat(key("k1").succeeded()).isTrue();
    status = 503;
    scheduler.advance(Duration.ofSeconds(2));

    assertThat(statusOf(key("made-up"))).isEqualTo(503);
    for (int i = 0; i < 20; i++) {
      assertThat(key("k1").succeeded()).as("a known kid while Keycloak fails").isTrue();
    }
    assertThat(statusOf(key("another"))).as("within eureka.jwks-retry: at once").isEqualTo(503);
    assertThat(fetches.get()).isEqualTo(2);

    status = 200;
    scheduler.advance(Duration.ofSeconds(10));
    assertThat(statusOf(key("after-retry"))).isEqualTo(401);
    assertThat(fetches.get()).isEqualTo(3);
  }

  @Test
  void key_unknownKidFlood_oneFetchPerRefetchMin_knownKidNeverWaits() {
    assertThat(key("k1").succeeded()).isTrue();

    assertThat(statusOf(key("made-up")))
        .as("the first unknown kid: fetched at once")
        .isEqualTo(401);
    List<Future<PublicKey>> flood = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      flood.add(key("made-up-" + i));
    }
    assertThat(flood).noneMatch(Future::isComplete);
    assertThat(key("k1").succeeded()).as("a known kid during the flood").isTrue();
    assertThat(fetches.get()).isEqualTo(2);

    scheduler.advance(Duration.ofSeconds(1));

    assertThat(fetches.get()).as("one fetch for the rest of the flood").isEqualTo(3);
    assertThat(flood).allSatisfy(f -> assertThat(statusOf(f)).isEqualTo(401));
  }

  @Test
  void key_madeUpKidJustBeforeARotation_genuineNewKidTakenWithinRefetchMin() {
    assertThat(key("k1").succeeded()).isTrue();
    scheduler.advance(Duration.ofSeconds(5));
    assertThat(statusOf(key("made-up"))).isEqualTo(401);
    published.put("k2", Jwts.SIG.RS256.keyPair().build());

    Future<PublicKey> genuine = key("k2");
    assertThat(genuine.isComplete()).as("waits, not refused").isFalse();
    scheduler.advance(Duration.ofMillis(999));
    assertThat(genuine.isComplete()).isFalse();
    scheduler.advance(Duration.ofMillis(1));

    assertThat(genuine.succeeded()).isTrue();
    assertThat(fetches.get()).isEqualTo(3);
  }

  @Test
  void key_unknownKidWhileAFetchIsUnderWay_joinsIt() {
    held = Promise.promise();
    Future<PublicKey> first = key("k1");
    Future<PublicKey> other = key("k1");
    Future<PublicKey> unknown = key("made-up");
    Promise<Void> release = held;
    held = null;
    release.complete();

    assertThat(first.succeeded()).isTrue();
    assertThat(other.succeeded()).isTrue();
    assertThat(statusOf(unknown)).isEqualTo(401);
    assertThat(fetches.get()).isEqualTo(1);
  }

  @Test
  void key_realmKeycloakLacks_401_askedOncePerRetry() {
    status = 404;

    for (int i = 0; i < 10; i++) {
      assertThat(statusOf(key("k1"))).isEqualTo(401);
    }
    assertThat(fetches.get()).isEqualTo(1);

    scheduler.advance(Duration.ofSeconds(10));
    assertThat(statusOf(key("k1"))).isEqualTo(401);
    assertThat(fetches.get()).isEqualTo(2);
  }

  @Test
  void key_keysPastRefresh_knownKidServedAtOnce_fetchedAgainInTheBackground() {
    assertThat(key("k1").succeeded()).isTrue();
    scheduler.advance(Duration.ofHours(1));
    held = Promise.promise();

    assertThat(key("k1").succeeded()).as("served while the refresh is under way").isTrue();
    assertThat(key("k1").succeeded()).isTrue();
    assertThat(fetches.get()).as("one refresh").isEqualTo(2);

    published.clear();
    published.put("k2", Jwts.SIG.RS256.keyPair().build());
    Promise<Void> release = held;
    held = null;
    release.complete();
    assertThat(statusOf(key("k1"))).as("a key Keycloak no longer publishes").isEqualTo(401);
  }

  /**
   * Many threads at once (seeded, a fixed count), fetches answered on other threads: a known kid is
   * always served at once; unknown kids cost the fetch one of them starts and, for those that came
   * after it ended, one due fetch, however the calls interleave.
   */
  @Test
  void key_manyThreads_knownKidAlwaysServed_unknownKidsAtMostOneDueFetch() throws Exception {
    ExecutorService keycloak = Executors.newFixedThreadPool(2);
    ExecutorService clients = Executors.newFixedThreadPool(8);
    try {
      RealmKeys async = new RealmKeys(realm -> answeredOn(keycloak), options(), timing());
      async.key("diku", "k1").await();
      Random seeds = new Random(42);
      List<java.util.concurrent.Future<Future<PublicKey>>> calls = new ArrayList<>();
      List<java.util.concurrent.Future<Boolean>> known = new ArrayList<>();
      for (int i = 0; i < 4000; i++) {
        String kid = "made-up-" + i;
        if (seeds.nextInt(4) == 0) {
          calls.add(clients.submit(() -> async.key("diku", kid)));
        } else {
          known.add(clients.submit(() -> async.key("diku", "k1").succeeded()));
        }
      }
      for (java.util.concurrent.Future<Boolean> served : known) {
        assertThat(served.get(1, TimeUnit.MINUTES)).as("a known kid, at once").isTrue();
      }
      List<Future<PublicKey>> unknown = new ArrayList<>();
      for (java.util.concurrent.Future<Future<PublicKey>> call : calls) {
        unknown.add(call.get(1, TimeUnit.MINUTES));
      }

      Await.until(
          () -> scheduler.pending() == 1 || unknown.stream().allMatch(Future::isComplete),
          "every unknown kid answered, or those left waiting for one due fetch");
      assertThat(scheduler.pending()).isLessThanOrEqualTo(1);
      scheduler.advance(Duration.ofSeconds(1));

      Await.until(
          () -> unknown.stream().allMatch(Future::isComplete), "every unknown kid answered");
      assertThat(unknown).allSatisfy(f -> assertThat(statusOf(f)).isEqualTo(401));
      assertThat(fetches.get()).as("the first, the first unknown kid's, one due").isBetween(2, 3);
    } finally {
      clients.shutdownNow();
      keycloak.shutdownNow();
    }
  }

  private Future<ModuleCall.Answer> answeredOn(ExecutorService keycloak) {
    fetches.incrementAndGet();
    Promise<ModuleCall.Answer> answer = Promise.promise();
    keycloak.execute(() -> answer.complete(answer()));
    return answer.future();
  }

  private static EurekaOptions options() {
    return EurekaOptions.from(
        Settings.of(
            Map.of(
                "eureka.keycloak-url", "http://keycloak",
                "eureka.jwks-refetch-min", "1s",
                "eureka.jwks-retry", "10s",
                "eureka.jwks-refresh", "1h")));
  }

  private Timing timing() {
    return Timing.of(scheduler::now, scheduler::at);
  }
}
