package io.okapigw.perf.hop;

/**
 * One wrk run through one {@link Via} and what the processes spent meanwhile.
 *
 * @param via how the requests went
 * @param size body bytes of each answer
 * @param round the round, from 1
 * @param wrk what wrk measured
 * @param proxyCpuNanos CPU time the proxy's processes were charged over the run (nginx: master and
 *     worker; a JVM: its process), or -1 if unknown (no proxy, or no pid for {@code --vs})
 * @param proxySystemNanos the part of {@code proxyCpuNanos} spent in the kernel, or -1
 * @param moduleCpuNanos CPU time the module was charged over the run
 * @param heapBytes the largest heap use sampled during the run (our gateway only), or -1
 * @param rssBytes the proxy's resident memory at the end of the run, or -1
 */
record Measurement(
    Via via,
    long size,
    int round,
    WrkResult wrk,
    long proxyCpuNanos,
    long proxySystemNanos,
    long moduleCpuNanos,
    long heapBytes,
    long rssBytes) {

  static final double MB = 1024 * 1024;

  /**
   * @return the proxy's CPU per request in microseconds, or NaN if unknown
   */
  double proxyMicrosPerRequest() {
    return proxyCpuNanos < 0 || wrk.requests() == 0
        ? Double.NaN
        : proxyCpuNanos / 1000.0 / wrk.requests();
  }

  /**
   * @return the kernel's share of the proxy's CPU time in per cent, or NaN if unknown
   */
  double proxySystemPercent() {
    return proxyCpuNanos <= 0 ? Double.NaN : 100.0 * proxySystemNanos / proxyCpuNanos;
  }

  /**
   * @return the proxy's CPU per MB (2^20 bytes) of body relayed in milliseconds, or NaN if unknown
   */
  double proxyMillisPerMb() {
    double mb = wrk.requests() * (double) size / MB;
    return proxyCpuNanos < 0 || mb == 0 ? Double.NaN : proxyCpuNanos / 1e6 / mb;
  }

  /**
   * @return the module's CPU per request in microseconds
   */
  double moduleMicrosPerRequest() {
    return wrk.requests() == 0 ? Double.NaN : moduleCpuNanos / 1000.0 / wrk.requests();
  }

  /**
   * @return body MB (2^20 bytes) per second
   */
  double megabytesPerSecond() {
    return wrk.requestsPerSecond() * size / MB;
  }
}
