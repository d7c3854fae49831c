package io.okapigw.perf.load;

import java.net.URI;
import java.time.Duration;

/**
 * One load run against one gateway.
 *
 * @param gateway the gateway's base URL (loopback only, checked by {@link LoopbackGuard})
 * @param tenant the tenant ({@code X-Okapi-Tenant})
 * @param username who each virtual user logs in as
 * @param password that user's password (never logged)
 * @param users virtual users, each doing one operation at a time
 * @param warmup how long the same load runs before measuring (not reported)
 * @param duration how long the measured load runs
 * @param probeRounds rounds of the per-operation auth-call probe after the measured run
 * @param maxOperations hard cap on check-outs plus check-ins over warm-up, run and probe
 */
record LoadPlan(URI gateway, String tenant, String username, String password, int users,
    Duration warmup, Duration duration, int probeRounds, long maxOperations) {

  /** Without the password. */
  @Override
  public String toString() {
    return "LoadPlan[" + gateway + ", tenant " + tenant + ", user " + username + ", " + users
        + " users, warm-up " + warmup + ", duration " + duration + ", probe " + probeRounds
        + " rounds, at most " + maxOperations + " operations]";
  }

  /** @return a plan that only loads the JVM for {@code length}: no measured run, no probe */
  LoadPlan priming(Duration length) {
    return new LoadPlan(gateway, tenant, username, password, users, length, Duration.ZERO, 0,
        maxOperations);
  }
}
