package io.okapigw.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.config.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Invalidation racing loads, at random, as Caffeine backs its concurrency claims: worker threads
 * look keys up, invalidate by tenant, user, token and everything, revoke users and sessions
 * (without a scan, with or without a settle time), and move the clock (TTL and stale-if-error), all
 * at once and in a random order, while the auth calls they start complete or fail at random moments
 * on other threads. The claim, checked after every round on everything that was answered: <b>a
 * lookup that starts after an invalidation returned never gets a decision whose auth call started
 * before that invalidation was called</b>, if the invalidation covers it (by its key or by the
 * decision: the user it names, the module tokens it hands out; a revocation by the key's user or
 * session).
 *
 * <p>Bounded in count ({@value #OPERATIONS} operations per worker and round), never by the clock: a
 * round that stopped at a deadline did less on a busy machine, and its auth calls, queued behind
 * the busy completers, missed a completion deadline (the test failed so with two CPU-bound
 * processes beside it). {@link #HANG_GUARD} only catches a hang. Seeded ({@code -Dstress.seed=N}
 * replays the same choices; the seed is in every failure message). Threads interleave as the
 * machine schedules them, so a run explores different interleavings of the same choices; no sleeps,
 * only spins and a few yields.
 */
class InvalidationRaceTest {

  private static final int ROUNDS = 6;
  private static final int WORKERS = 4;
  private static final int COMPLETERS = 2;
  private static final int OPERATIONS = 3_000;
  private static final Duration HANG_GUARD = Duration.ofMinutes(2);

  private static final List<String> TENANTS = List.of("t1", "t2");
  private static final List<String> USERS = List.of("u1", "u2", "u3");
  private static final List<String> TOKENS = List.of("k1", "k2", "k3", "k4");
  private static final List<String> SESSIONS = List.of("s1", "s2", "s3");
  private static final List<String> MODULE_TOKENS = List.of("m1", "m2", "m3");
  private static final List<String> PATHS = List.of("/a", "/b");
  private static final Pattern LOAD = Pattern.compile("load-(\\d+)");

  /** An invalidation as called: what it covers, and when it was called and returned. */
  private record Invalidated(
      String what, BiPredicate<AuthCacheKey, AuthDecision> covers, long called, long returned) {}

  /** A lookup's answer: when the lookup started, and when the auth call behind it started. */
  private record Answered(AuthCacheKey key, AuthDecision decision, long loadStarted, long asked) {}

  @Test
  void invalidationRacingLoads_noLookupAfterItGetsADecisionLoadedBeforeIt() throws Exception {
    long seed = Long.getLong("stress.seed", 24L);
    for (int round = 0; round < ROUNDS; round++) {
      new Round(seed + round, round % 2 == 0 ? "0s" : "30s").run();
    }
  }

  /** One cache, {@value #WORKERS} workers, {@value #COMPLETERS} threads completing auth calls. */
  private static final class Round {

    private final long seed;
    private final FakeTime time = new FakeTime();
    private final AuthCache cache;
    private final AtomicLong sequence = new AtomicLong();
    private final ExecutorService completers = Executors.newFixedThreadPool(COMPLETERS);
    private final ConcurrentLinkedQueue<Invalidated> invalidations = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Answered> answers = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<CompletableFuture<?>> lookups =
        new ConcurrentLinkedQueue<>();

    Round(long seed, String staleIfError) {
      this.seed = seed;
      this.cache =
          AuthCache.create(
              AuthCacheOptions.from(
                  Settings.of(
                      Map.of(
                          "auth.cache.ttl", "5s",
                          "auth.cache.negative-ttl", "5s",
                          "auth.cache.stale-if-error", staleIfError))),
              time,
              time.clock(),
              new SimpleMeterRegistry());
    }

    void run() throws Exception {
      SplittableRandom seeds = new SplittableRandom(seed);
      List<Thread> workers = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        SplittableRandom random = seeds.split();
        workers.add(new Thread(() -> work(random), "worker-" + w));
      }
      workers.forEach(Thread::start);
      for (Thread worker : workers) {
        worker.join(HANG_GUARD.toMillis());
        assertThat(worker.isAlive()).as("seed %d: %s hangs", seed, worker.getName()).isFalse();
      }
      CompletableFuture.allOf(lookups.toArray(CompletableFuture[]::new))
          .handle((v, e) -> null)
          .get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS);
      completers.shutdownNow();
      assertThat(invalidations).as("seed %d: invalidations made", seed).isNotEmpty();
      assertThat(answers).as("seed %d: lookups answered", seed).hasSizeGreaterThan(OPERATIONS);
      assertThat(staleAnswers())
          .as("seed %d: decisions that outlived an invalidation", seed)
          .isEmpty();
    }

    private void work(SplittableRandom random) {
      for (int i = 0; i < OPERATIONS; i++) {
        int dice = random.nextInt(100);
        if (dice < 84) {
          lookUp(random);
        } else if (dice < 87) {
          time.advance(Duration.ofMillis(random.nextInt(3_000)));
        } else {
          invalidate(random, dice);
        }
        if (random.nextInt(8) == 0) {
          Thread.yield();
        }
      }
    }

    private void lookUp(SplittableRandom random) {
      AuthCacheKey key =
          new AuthCacheKey(
              pick(random, TENANTS),
              "GET",
              pick(random, PATHS),
              random.nextBoolean() ? "" : pick(random, USERS),
              pick(random, TOKENS),
              random.nextBoolean() ? "" : pick(random, SESSIONS));
      long asked = sequence.incrementAndGet();
      CompletableFuture<AuthDecision> answer = cache.get(key, authCall(random.split()));
      lookups.add(
          answer.whenComplete(
              (decision, error) -> {
                if (decision != null) {
                  answers.add(new Answered(key, decision, loadStarted(decision), asked));
                }
              }));
    }

    /**
     * The auth module: the call's start is in the decision's permissions; answered at once, later
     * on a completer thread, or failed later; a grant mostly, a 403 sometimes.
     */
    private Function<AuthCacheKey, CompletableFuture<AuthDecision>> authCall(
        SplittableRandom random) {
      return key -> {
        long started = sequence.incrementAndGet();
        AuthDecision decision = decision(key, started, random);
        int dice = random.nextInt(100);
        if (dice < 25) {
          return CompletableFuture.completedFuture(decision);
        }
        CompletableFuture<AuthDecision> answer = new CompletableFuture<>();
        int spins = random.nextInt(5_000);
        boolean fails = dice >= 90;
        completers.execute(
            () -> {
              spin(spins);
              if (fails) {
                answer.completeExceptionally(new IllegalStateException("auth module down"));
              } else {
                answer.complete(decision);
              }
            });
        return answer;
      };
    }

    private static AuthDecision decision(AuthCacheKey key, long started, SplittableRandom random) {
      String user = key.userId().isEmpty() ? owner(key.token()) : key.userId();
      String permissions = "[\"load-" + started + "\"]";
      if (random.nextInt(10) == 0) {
        return AuthDecision.refusal(403, "load-" + started, "text/plain");
      }
      String moduleToken = pick(random, MODULE_TOKENS);
      return AuthDecision.grant(
          202,
          moduleToken,
          user,
          permissions,
          Map.of("_", moduleToken, "mod-x", pick(random, MODULE_TOKENS)));
    }

    private void invalidate(SplittableRandom random, int dice) {
      String tenant = pick(random, TENANTS);
      long called = sequence.incrementAndGet();
      String what;
      BiPredicate<AuthCacheKey, AuthDecision> covers;
      if (dice < 90) {
        cache.invalidateTenant(tenant);
        what = "tenant " + tenant;
        covers = (key, decision) -> key.tenant().equals(tenant);
      } else if (dice < 92) {
        String user = pick(random, USERS);
        cache.revokeUser(tenant, user, settle(random));
        what = "revoked user " + tenant + "/" + user;
        covers = (key, decision) -> key.tenant().equals(tenant) && key.userId().equals(user);
      } else if (dice < 94) {
        String session = pick(random, SESSIONS);
        cache.revokeSession(tenant, session, settle(random));
        what = "revoked session " + tenant + "/" + session;
        covers = (key, decision) -> key.tenant().equals(tenant) && key.session().equals(session);
      } else if (dice < 96) {
        String user = pick(random, USERS);
        cache.invalidateUser(tenant, user);
        what = "user " + tenant + "/" + user;
        covers =
            (key, decision) ->
                key.tenant().equals(tenant)
                    && (key.userId().equals(user) || decision.userId().equals(user));
      } else if (dice < 99) {
        String token = random.nextBoolean() ? pick(random, TOKENS) : pick(random, MODULE_TOKENS);
        cache.invalidateToken(token);
        what = "token " + token;
        covers =
            (key, decision) ->
                key.token().equals(token)
                    || decision.moduleToken().equals(token)
                    || decision.moduleTokens().containsValue(token);
      } else {
        cache.invalidateAll();
        what = "all";
        covers = (key, decision) -> true;
      }
      invalidations.add(new Invalidated(what, covers, called, sequence.incrementAndGet()));
    }

    private static Duration settle(SplittableRandom random) {
      return random.nextBoolean() ? Duration.ZERO : Duration.ofMillis(random.nextInt(10_000));
    }

    /**
     * @return every answer whose auth call started before an invalidation that covers it was
     *     called, given by a lookup that started after that invalidation returned
     */
    private List<String> staleAnswers() {
      List<Invalidated> byCall =
          invalidations.stream().sorted(Comparator.comparingLong(Invalidated::called)).toList();
      List<String> stale = new ArrayList<>();
      for (Answered a : answers) {
        for (Invalidated inv : byCall) {
          if (inv.called() > a.asked()) {
            break;
          }
          if (inv.called() > a.loadStarted()
              && inv.returned() < a.asked()
              && inv.covers().test(a.key(), a.decision())) {
            stale.add(
                String.format(
                    "lookup %d of %s got the decision of auth call %d (%s); invalidation of %s was"
                        + " called at %d and returned at %d",
                    a.asked(),
                    a.key(),
                    a.loadStarted(),
                    a.decision(),
                    inv.what(),
                    inv.called(),
                    inv.returned()));
            break;
          }
        }
      }
      return stale.size() > 5 ? stale.subList(0, 5) : stale;
    }
  }

  /** A refusal carries no permissions: its auth call is marked by its body instead. */
  private static long loadStarted(AuthDecision decision) {
    Matcher m = LOAD.matcher(decision.permissions() + decision.body());
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  private static String owner(String token) {
    return USERS.get(Math.floorMod(token.hashCode(), USERS.size()));
  }

  private static String pick(SplittableRandom random, List<String> from) {
    return from.get(random.nextInt(from.size()));
  }

  /**
   * Holds a completer a random while, without yielding: a yield on a busy machine gives the CPU
   * away for a whole time slice, and thousands of them made a round take minutes.
   */
  private static void spin(int times) {
    for (int i = 0; i < times; i++) {
      Thread.onSpinWait();
    }
  }
}
