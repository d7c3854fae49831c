package io.okapigw.perf.load;

import java.time.Duration;
import java.util.List;

/**
 * The outcome of one load run (one gateway, one user count).
 *
 * @param mode what ran behind the gateway ({@code auth off}, {@code cache off},
 *     {@code cache on}), or the gateway's URL
 * @param plan what was run
 * @param elapsed length of the measured run, until the last user stopped
 * @param checkOut check-outs of the measured run
 * @param checkIn check-ins of the measured run
 * @param both both together
 * @param runAuthCalls auth calls the gateway made during the measured run
 * @param probe auth calls per operation from the probe after it
 * @param errors errors of all phases: warm-up, measured run and probe
 * @param firstErrors the first few error messages
 */
record RunReport(String mode, LoadPlan plan, Duration elapsed, OperationSummary checkOut,
    OperationSummary checkIn, OperationSummary both, double runAuthCalls, AuthProbe.Result probe,
    long errors, List<String> firstErrors) {

  /** @return auth calls during the measured run per operation of it, NaN without operations */
  double authCallsPerOperation() {
    return both.count() == 0 ? Double.NaN : runAuthCalls / both.count();
  }
}
