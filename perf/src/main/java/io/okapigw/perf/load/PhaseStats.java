package io.okapigw.perf.load;

/**
 * The figures of one phase (warm-up, measured run or probe).
 *
 * @param checkOut check-out latencies and errors
 * @param checkIn check-in latencies and errors
 */
record PhaseStats(OperationStats checkOut, OperationStats checkIn) {

  static PhaseStats create() {
    return new PhaseStats(new OperationStats("check-out"), new OperationStats("check-in"));
  }

  /**
   * @return both operations as one, named {@code both}
   */
  OperationStats both() {
    return OperationStats.merge("both", checkOut, checkIn);
  }
}
