package io.okapigw.perf.fullfake;

import io.okapigw.perf.kit.load.HttpLoadResult;

/**
 * One cell of the full-fake matrix: the same load direct to the module and through the gateway.
 *
 * @param clients concurrent clients asked for
 * @param size body bytes
 * @param requests requests per route
 * @param direct client -> module
 * @param gateway client -> gateway (auth filter, cache hit) -> module
 * @param heap the gateway's heap during the gateway run, or {@code null} if not sampled
 * @param gatewayCpuNanos CPU time the gateway's JVM used during the gateway run (-1: unknown)
 */
public record CellResult(
    int clients,
    long size,
    int requests,
    HttpLoadResult direct,
    HttpLoadResult gateway,
    Heap heap,
    long gatewayCpuNanos) {

  /**
   * The gateway's heap used around a run, in bytes (-1 where no sample succeeded).
   *
   * @param before just before
   * @param max the largest sample during
   * @param after just after
   */
  public record Heap(long before, long max, long after) {}

  /**
   * @return gateway / direct requests per second
   */
  public double rpsRatio() {
    return ratio(gateway.rps(), direct.rps());
  }

  /**
   * @return gateway / direct bytes per second
   */
  public double throughputRatio() {
    return ratio(gateway.mbPerSecond(), direct.mbPerSecond());
  }

  /**
   * @return the gateway's CPU milliseconds per request of the gateway run (-1: unknown)
   */
  public double gatewayCpuMillisPerRequest() {
    return gatewayCpuNanos < 0 || gateway.completed() == 0
        ? -1
        : gatewayCpuNanos / 1e6 / gateway.completed();
  }

  /**
   * @return cores the gateway kept busy on average during its run (-1: unknown)
   */
  public double gatewayCores() {
    return gatewayCpuNanos < 0 || gateway.elapsedNanos() == 0
        ? -1
        : gatewayCpuNanos / (double) gateway.elapsedNanos();
  }

  /**
   * @return errors of both runs
   */
  public int errors() {
    return direct.errors() + gateway.errors();
  }

  private static double ratio(double a, double b) {
    return b == 0 ? 0 : a / b;
  }
}
