package io.okapigw.core.upstream.balance;

/**
 * What a node has learned of one instance of a module.
 *
 * @param ejected whether calls avoid it now
 * @param ejectedForMillis how much longer they do; 0 when not ejected
 * @param consecutiveFailures failures since its last success (or ejection)
 * @param ejections how often it was ejected since the node started
 * @param outstanding its calls in flight
 * @param onProbation back from an ejection without a success yet: one failure ejects it again
 */
public record InstanceView(
    boolean ejected,
    long ejectedForMillis,
    int consecutiveFailures,
    long ejections,
    int outstanding,
    boolean onProbation) {}
