package io.okapigw.perf.load;

import java.time.Duration;
import java.util.List;

/**
 * The outcome of one load run (one gateway, one user count).
 *
 * @param mode what ran behind the gateway ({@code auth off}, {@code cache off}, {@code cache on}),
 *     or the gateway's URL
 * @param plan what was run
 * @param elapsed length of the measured run, until the last user stopped
 * @param checkOut check-outs of the measured run
 * @param checkIn check-ins of the measured run
 * @param both both together
 * @param runAuthCalls auth calls the gateway made during the measured run
 * @param probe auth calls per operation from the probe after it
 * @param errors errors of all phases: warm-up, measured run and probe (an operation lost in flight
 *     counts unless its gateway went down)
 * @param firstErrors the first few error messages
 * @param downGateways the gateways taken out of the run because they refused connections
 * @param lostInFlight operations that failed after they were sent to a gateway that then went down
 *     (not counted in {@code errors}, not timed)
 * @param gatewayCpuNanos CPU time of the gateway JVMs during the measured run, what the kernel
 *     charged the process listening on each gateway's port, else what the gateway reports at {@code
 *     /_/metrics} (NaN if neither is known; in-process gateways count their whole JVM)
 * @param cpuSource where {@code gatewayCpuNanos} comes from, for the report
 * @param withoutMetrics the gateways that have no {@code /_/metrics} (Okapi), each with what it
 *     answered; if any, {@code runAuthCalls} is NaN and no probe ran (its result is {@link
 *     AuthProbe.Result#NONE})
 */
public record RunReport(
    String mode,
    LoadPlan plan,
    Duration elapsed,
    OperationSummary checkOut,
    OperationSummary checkIn,
    OperationSummary both,
    double runAuthCalls,
    AuthProbe.Result probe,
    long errors,
    List<String> firstErrors,
    List<String> downGateways,
    long lostInFlight,
    double gatewayCpuNanos,
    String cpuSource,
    List<String> withoutMetrics) {

  public RunReport {
    withoutMetrics = List.copyOf(withoutMetrics);
  }

  /**
   * @return whether every gateway reported its auth calls
   */
  public boolean metricsKnown() {
    return withoutMetrics.isEmpty();
  }

  /**
   * @return auth calls during the measured run per operation of it, NaN without operations or
   *     without metrics
   */
  public double authCallsPerOperation() {
    return both.count() == 0 ? Double.NaN : runAuthCalls / both.count();
  }

  /**
   * @return gateway CPU milliseconds per operation of the measured run, NaN without operations or
   *     without a CPU time
   */
  public double gatewayCpuMsPerOperation() {
    return both.count() == 0 ? Double.NaN : gatewayCpuNanos / 1e6 / both.count();
  }
}
