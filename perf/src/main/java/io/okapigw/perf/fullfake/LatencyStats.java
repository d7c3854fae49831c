package io.okapigw.perf.fullfake;

/**
 * Latency statistics in milliseconds (nearest-rank percentiles).
 *
 * @param count samples
 * @param mean arithmetic mean
 * @param p50 median
 * @param p99 99th percentile
 * @param max largest sample
 */
public record LatencyStats(int count, double mean, double p50, double p99, double max) {}
