package io.okapigw.perf.load;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * One load run against one gateway, or several spread over by user (see {@link Gateways}).
 *
 * @param gateways the gateways' base URLs, at least one (loopback only, checked by {@link
 *     LoopbackGuard})
 * @param tenant the tenant ({@code X-Okapi-Tenant})
 * @param username who each virtual user logs in as
 * @param password that user's password (never logged)
 * @param users virtual users, each doing one operation at a time
 * @param warmup how long the same load runs before measuring (not reported)
 * @param duration how long the measured load runs
 * @param probeRounds rounds of the per-operation auth-call probe after the measured run
 * @param maxOperations hard cap on check-outs plus check-ins over warm-up, run and probe
 */
public record LoadPlan(
    List<URI> gateways,
    String tenant,
    String username,
    String password,
    int users,
    Duration warmup,
    Duration duration,
    int probeRounds,
    long maxOperations) {

  public LoadPlan {
    gateways = List.copyOf(gateways);
    if (gateways.isEmpty()) {
      throw new IllegalArgumentException("a load plan needs at least one gateway");
    }
    gateways.forEach(g -> LoopbackGuard.check(g.toString()));
  }

  /** Without the password. */
  @Override
  public String toString() {
    return "LoadPlan["
        + gateways
        + ", tenant "
        + tenant
        + ", user "
        + username
        + ", "
        + users
        + " users, warm-up "
        + warmup
        + ", duration "
        + duration
        + ", probe "
        + probeRounds
        + " rounds, at most "
        + maxOperations
        + " operations]";
  }

  /**
   * @return a plan that only loads the JVM for {@code length}: no measured run, no probe
   */
  LoadPlan priming(Duration length) {
    return new LoadPlan(
        gateways, tenant, username, password, users, length, Duration.ZERO, 0, maxOperations);
  }
}
