package io.okapigw.core.upstream.balance;

/**
 * What a node has learned of one instance of a module.
 *
 * @param ejected whether calls avoid it now for failing
 * @param ejectedForMillis how much longer they do; 0 when not ejected
 * @param consecutiveFailures failures since its last success (or ejection)
 * @param ejections how often it was ejected since the node started
 * @param outstanding its calls in flight
 * @param onProbation back from an ejection without a success yet: one failure ejects it again
 * @param stalled it had calls in flight and answered none for {@code proxy.outlier.stall}: calls
 *     avoid it until it answers again (a call or a check)
 * @param latencyMillis how fast it answers, as the choice weighs it (peak EWMA); 0 before its first
 *     answer
 */
public record InstanceView(
    boolean ejected,
    long ejectedForMillis,
    int consecutiveFailures,
    long ejections,
    int outstanding,
    boolean onProbation,
    boolean stalled,
    double latencyMillis) {}
