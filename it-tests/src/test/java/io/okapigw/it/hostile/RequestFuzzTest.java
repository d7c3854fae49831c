package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.it.hostile.FuzzClient.Answer;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A bounded, seeded random-request fuzz run against the gateway JVM on raw sockets: valid requests
 * ({@link FuzzCorpus}) mutated at random ({@link Mutator}), pipelined, cut, reset, written byte by
 * byte, and request smuggling shapes; {@value #WORKERS} connections at a time, at most {@code
 * fuzz.count} cases (2,000) and {@code fuzz.seconds} (45 s). Asserted:
 *
 * <ul>
 *   <li>no answer is a 5xx: the module is well-behaved, so any 5xx is the gateway's (but for the
 *       few the RFCs prescribe, {@link FuzzOracle});
 *   <li>no connection is left without an answer or a close for {@link FuzzClient#BOUND}, and every
 *       answer is an HTTP/1.x response;
 *   <li>the module receives only paths in normal form ({@link NormalForm}), never a request hidden
 *       in a smuggling shape, and a request needing alice's permission only from a case that sent
 *       alice's token;
 *   <li>normal traffic from a client of its own ({@link Probe}) is answered in time during the run,
 *       its requests without a token decided as such (401) whatever the cases sent before, and
 *       every module pool serves afterwards;
 *   <li>the gateway's log has no stack trace and no ERROR line.
 * </ul>
 *
 * The seed is printed at the start and in every failure, with the case's bytes (escaped); rerun
 * with {@code -Dfuzz.seed=S}, or one case alone with {@code -Dfuzz.seed=S -Dfuzz.case=I}. Cases run
 * concurrently, so what one does to the gateway may affect another; a case alone reproduces what it
 * sends, not necessarily the others around it.
 */
@ExtendWith(HostileGateway.Resolver.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RequestFuzzTest {

  private static final int WORKERS = 8;
  private static final int COUNT = Integer.getInteger("fuzz.count", 2_000);
  private static final Duration TIME = Duration.ofSeconds(Long.getLong("fuzz.seconds", 45));
  private static final int MAX_REPORTED = 30;

  private final List<String> findings = new ArrayList<>();
  private final Map<String, AtomicInteger> tally = new ConcurrentHashMap<>();
  private final AtomicLong slowestMillis = new AtomicLong();
  private FuzzOracle oracle;

  @Test
  void randomRequests_no5xxNoHangModuleSeesNormalFormOnly_normalTrafficUnaffected(HostileGateway gw)
      throws Exception {
    long seed = Long.getLong("fuzz.seed", new SecureRandom().nextLong());
    Integer only = Integer.getInteger("fuzz.case");
    System.out.println(
        "fuzz: seed "
            + seed
            + " (rerun: -Dfuzz.seed="
            + seed
            + ")"
            + (only != null
                ? ", case " + only + " alone"
                : ", up to " + COUNT + " cases in " + TIME));
    FuzzCorpus corpus = new FuzzCorpus(gw.aliceToken());
    oracle = new FuzzOracle(gw.backend, gw.aliceToken(), this::report);
    int mark = gw.output().length();
    long start = System.nanoTime();
    int run;
    Probe probe = Probe.start(gw);
    try {
      run = only != null ? runAlone(gw, seed, only, corpus) : runAll(gw, seed, corpus);
    } finally {
      probe.close();
    }
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

    probe.failures().forEach(f -> report("normal traffic during the run: " + f));
    oracle.judgeModuleSide(i -> FuzzCase.generate(seed, i, corpus, gw.aliceToken()));
    checkPoolsServe(gw);
    Map<String, Integer> otherLogLines = oracle.judgeLog(gw.output().substring(mark));
    if (!gw.isAlive()) {
      report("the gateway JVM is gone");
    }
    System.out.println(
        "fuzz: seed "
            + seed
            + ": "
            + run
            + " cases in "
            + seconds
            + " s, "
            + probe.count()
            + " normal requests (slowest "
            + probe.slowestMillis()
            + " ms), slowest"
            + " case "
            + slowestMillis
            + " ms\n  answers "
            + new TreeMap<>(tally)
            + "\n  gateway log lines other than the failure log's: "
            + otherLogLines
            + "\n  findings: "
            + findings.size());
    assertThat(findings).as("fuzz findings, seed %d (rerun: -Dfuzz.seed=%d)", seed, seed).isEmpty();
  }

  private int runAll(HostileGateway gw, long seed, FuzzCorpus corpus) throws Exception {
    AtomicInteger next = new AtomicInteger();
    long deadline = System.nanoTime() + TIME.toNanos();
    ExecutorService writers = Executors.newCachedThreadPool();
    ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
    try {
      FuzzClient client = new FuzzClient(writers);
      for (int w = 0; w < WORKERS; w++) {
        workers.submit(
            () -> {
              for (int i; (i = next.getAndIncrement()) < COUNT && System.nanoTime() < deadline; ) {
                runCase(gw, client, FuzzCase.generate(seed, i, corpus, gw.aliceToken()));
              }
              return null;
            });
      }
      workers.shutdown();
      assertThat(
              workers.awaitTermination(
                  TIME.plus(FuzzClient.BOUND).toSeconds() + 10, TimeUnit.SECONDS))
          .as("fuzz workers done")
          .isTrue();
    } finally {
      workers.shutdownNow();
      writers.shutdownNow();
    }
    return Math.min(next.get(), COUNT);
  }

  private int runAlone(HostileGateway gw, long seed, int index, FuzzCorpus corpus)
      throws IOException {
    ExecutorService writers = Executors.newCachedThreadPool();
    try {
      FuzzCase c = FuzzCase.generate(seed, index, corpus, gw.aliceToken());
      System.out.println("fuzz: " + c.describe());
      Answer answer = runCase(gw, new FuzzClient(writers), c);
      System.out.println(
          "fuzz: answers "
              + answer.responses()
              + (answer.closed() ? ", closed" : "")
              + (answer.failure() != null ? ", " + answer.failure() : ""));
      return 1;
    } finally {
      writers.shutdownNow();
    }
  }

  private Answer runCase(HostileGateway gw, FuzzClient client, FuzzCase c) throws IOException {
    Answer answer = client.run(c, c.admin() ? gw.adminPort() : gw.port());
    slowestMillis.accumulateAndGet(answer.millis(), Math::max);
    answer.responses().forEach(r -> count(Integer.toString(r.status())));
    if (answer.responses().isEmpty()) {
      count(c.ending() + (answer.closed() ? " closed" : ""));
    }
    oracle.judge(c, answer);
    return answer;
  }

  private void count(String what) {
    tally.computeIfAbsent(what, k -> new AtomicInteger()).incrementAndGet();
  }

  private void checkPoolsServe(HostileGateway gw) throws InterruptedException {
    for (Outcome o :
        Outcome.concurrently(
            2 * HostileGateway.MAX_CONNECTIONS + 4,
            HostileGateway.ANSWER_BOUND,
            () -> {
              try (RawConnection c = RawConnection.open(gw.port())) {
                return c.send("GET /s/ping HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n\r\n")
                    .response();
              }
            })) {
      if (o.status() != 200) {
        report("after the run, a normal request: " + o);
      }
    }
  }

  private synchronized void report(String finding) {
    if (findings.size() < MAX_REPORTED) {
      System.out.println("fuzz: FINDING " + finding);
    }
    findings.add(finding);
  }
}
