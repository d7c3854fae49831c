package io.okapigw.it.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.it.CpuBurners;
import io.okapigw.it.Jars;
import io.okapigw.it.ReferenceOkapi;
import io.okapigw.it.deployment.ColdAuthChain.Run;
import io.okapigw.it.deployment.ColdAuthChain.Step;
import io.okapigw.testsupport.FreePorts;
import io.okapigw.testsupport.TestPostgres;
import io.okapigw.testsupport.process.StandaloneGateway;
import io.vertx.pgclient.PgConnectOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A FOLIO auth chain started cold beside a loaded CPU is answered as behind Okapi (issue 47): the
 * real chain ({@link FolioAuthChain}: mod-users, mod-permissions, mod-login, mod-users-bl,
 * mod-authtoken) deployed and enabled by a fresh gateway of ours, then by a fresh Okapi 6.1.5, each
 * with a PostgreSQL server of its own, beside {@code -Dokapigw.burners=N} CPU-bound processes
 * (default 2, as {@code .ci/busy}), and at once the first requests ({@link ColdAuthChain}): a login
 * through mod-users-bl and look-ups with its token. Every first request answered 2xx behind both,
 * with the same statuses; each step's time printed for both. Behind ours a cold auth module's
 * filter calls and handler calls wait {@code auth.cold-timeout} (60 s) in its {@code auth.warm-up},
 * not {@code auth.timeout} (3 s) and {@code auth.handler-timeout} (10 s): Okapi sets no limit.
 * Skipped with a notice where the chain or Okapi 6.1.5 is not built.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class ColdAuthChainTest {

  private static final int PORTS = 10;

  @TempDir Path dir;

  @Test
  void coldAuthChain_besideBusyCpu_firstRequestsAnsweredAsBehindOkapi() throws Exception {
    Optional<FolioAuthChain> chain = FolioAuthChain.find();
    Optional<ReferenceOkapi> okapi = ReferenceOkapi.v615();
    if (chain.isEmpty() || okapi.isEmpty()) {
      String notice =
          "NOTICE: ColdAuthChainTest skipped: "
              + (chain.isEmpty() ? "the FOLIO auth chain" : "Okapi 6.1.5")
              + " is not built (see the notice above)";
      System.err.println(notice);
      Assumptions.abort(notice);
    }
    Run ours;
    Run theirs;
    int burners = CpuBurners.requested();
    try (CpuBurners busy = CpuBurners.start(burners)) {
      ours = behindOurs(chain.get());
      print("ours", ours);
      theirs = behindOkapi(okapi.get(), chain.get());
      print("Okapi 6.1.5", theirs);
      assertThat(busy.count()).as("burners still running").isEqualTo(burners);
    }

    assertThat(theirs.first())
        .as("Okapi 6.1.5: every first request of the cold chain answered 2xx")
        .allSatisfy(s -> assertThat(s.status() / 100).as(s.toString()).isEqualTo(2));
    assertThat(outcomes(ours.first()))
        .as("ours: the first requests answered as behind Okapi 6.1.5")
        .isEqualTo(outcomes(theirs.first()));
  }

  /** Our gateway, fresh, deploying on a port range of its own; stopped after the run. */
  private static Run behindOurs(FolioAuthChain chain) throws Exception {
    int ports = FreePorts.belowEphemeralRange();
    StandaloneGateway gateway = StandaloneGateway.deploying(Jars.gateway(), ports, ports + PORTS);
    try {
      return withDatabase(db -> ColdAuthChain.run(gateway.url(), chain, db));
    } catch (AssertionError | Exception e) {
      System.err.println("our gateway's output:\n" + gateway.process().outputTail());
      throw e;
    } finally {
      gateway.process().stop();
      gateway.close();
    }
  }

  /** A fresh Okapi 6.1.5 in {@code dev} mode, deploying on a port range of its own. */
  private Run behindOkapi(ReferenceOkapi okapi, FolioAuthChain chain) throws Exception {
    try {
      return OkapiRun.with(
          okapi, dir, PORTS, url -> withDatabase(db -> ColdAuthChain.run(url, chain, db)));
    } catch (AssertionError | Exception e) {
      List<String> log = Files.readAllLines(dir.resolve("okapi.log"));
      System.err.println(
          "Okapi's output:\n"
              + String.join("\n", log.subList(Math.max(0, log.size() - 60), log.size())));
      throw e;
    }
  }

  /**
   * A PostgreSQL server of the side's own: the RMB modules create roles per tenant and module
   * ({@code diku_mod_users}), which are the server's, not a database's.
   */
  private static <T> T withDatabase(Function<PgConnectOptions, T> work) {
    try (TestPostgres postgres = TestPostgres.startOwn()) {
      return work.apply(PgConnectOptions.fromUri(postgres.createDatabase()));
    }
  }

  private static void print(String side, Run run) {
    System.out.printf(
        "cold auth chain behind %s (%d CPU burners):%n  set-up:%n    %s%n  first requests:%n    %s%n",
        side,
        CpuBurners.requested(),
        String.join("\n    ", run.setUp().stream().map(Step::toString).toList()),
        String.join("\n    ", run.first().stream().map(Step::toString).toList()));
  }

  private static List<String> outcomes(List<Step> steps) {
    return steps.stream().map(Step::outcome).toList();
  }
}
