package io.okapigw.perf.kit.latency;

/**
 * What {@link Latencies} recorded, in milliseconds.
 *
 * @param count how many
 * @param mean arithmetic mean
 * @param p50 median
 * @param p90 90th percentile
 * @param p99 99th percentile
 * @param max largest
 */
public record LatencyStats(
    long count, double mean, double p50, double p90, double p99, double max) {}
