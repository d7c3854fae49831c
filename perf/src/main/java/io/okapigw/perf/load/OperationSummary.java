package io.okapigw.perf.load;

/**
 * What a table shows of one operation in one run. Times in milliseconds.
 *
 * @param name {@code check-out}, {@code check-in} or {@code both}
 * @param count attempts (successful or not)
 * @param errors attempts that failed or got a non-2xx answer
 * @param rps attempts per second of the measured run
 * @param mean mean latency, from sending the request to the last byte of the answer
 * @param p50 median
 * @param p90 90th percentile
 * @param p99 99th percentile
 * @param max longest
 */
public record OperationSummary(
    String name,
    long count,
    long errors,
    double rps,
    double mean,
    double p50,
    double p90,
    double p99,
    double max) {}
