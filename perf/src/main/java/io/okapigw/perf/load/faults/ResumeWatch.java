package io.okapigw.perf.load.faults;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What {@code node-pause} learns of the resumed node, one observation at a time, no I/O: its health
 * answers until it is ready again ({@link #health}), and the answers it gave the probe user whose
 * permission was revoked while it was cut off ({@link #probe}), counted apart before and after it
 * said ready.
 *
 * <p>Ready again: {@code /_/proxy/health} 200 with every member, after it had said not ready once
 * (a node that never says so is ready again only once {@code neverNotReadyMillis} have passed with
 * 200 and every member: the gateway before issue 43 said ready throughout).
 */
final class ResumeWatch {

  private final int members;
  private final long neverNotReadyMillis;
  private final int grantedStatus;
  private boolean saidNotReady;
  private long readyMillis = -1;
  private final Map<Integer, Integer> beforeReady = new TreeMap<>();
  private final Map<Integer, Integer> afterReady = new TreeMap<>();

  /**
   * @param members the cluster's size
   * @param neverNotReadyMillis how long a node that never says not ready is watched
   * @param grantedStatus what the probe's request is answered while the permission is granted (the
   *     module's answer to an unknown barcode); never 401 or 403
   */
  ResumeWatch(int members, long neverNotReadyMillis, int grantedStatus) {
    if (grantedStatus == 401 || grantedStatus == 403) {
      throw new IllegalArgumentException("a granted request is not answered " + grantedStatus);
    }
    this.members = members;
    this.neverNotReadyMillis = neverNotReadyMillis;
    this.grantedStatus = grantedStatus;
  }

  /**
   * One health answer of the resumed node.
   *
   * @param code its status, or -1 for none (a timeout, a refused connection)
   * @param seen its members, 0 when it did not say
   * @param millis since the resume
   * @return whether it is ready again (from this answer on, for good)
   */
  boolean health(int code, int seen, long millis) {
    if (readyMillis >= 0) {
      return true;
    }
    boolean up = code == 200 && seen == members;
    if (!up && code != 200) {
      saidNotReady = true;
    }
    if (up && (saidNotReady || millis >= neverNotReadyMillis)) {
      readyMillis = millis;
    }
    return readyMillis >= 0;
  }

  /** One answer to the probe's request, sent before or after the node was ready again. */
  void probe(int status) {
    Map<Integer, Integer> counts = ready() ? afterReady : beforeReady;
    counts.merge(status, 1, Integer::sum);
  }

  boolean ready() {
    return readyMillis >= 0;
  }

  /**
   * @return ms from the resume until ready again, -1 if not (yet)
   */
  long readyMillis() {
    return readyMillis;
  }

  boolean saidNotReady() {
    return saidNotReady;
  }

  /**
   * @return the probe's requests granted (answered {@code grantedStatus}) before ready again
   */
  int grantsBeforeReady() {
    return beforeReady.getOrDefault(grantedStatus, 0);
  }

  /**
   * @return the same after ready again
   */
  int grantsAfterReady() {
    return afterReady.getOrDefault(grantedStatus, 0);
  }

  int probesBeforeReady() {
    return beforeReady.values().stream().mapToInt(Integer::intValue).sum();
  }

  int probesAfterReady() {
    return afterReady.values().stream().mapToInt(Integer::intValue).sum();
  }

  /**
   * @return the probe's answers before and after ready again, e.g. {@code 503 ×4, 403 ×120}
   */
  String beforeReadyText() {
    return text(beforeReady);
  }

  String afterReadyText() {
    return text(afterReady);
  }

  private static String text(Map<Integer, Integer> counts) {
    if (counts.isEmpty()) {
      return "none";
    }
    return counts.entrySet().stream()
        .map(e -> (e.getKey() < 0 ? "no answer" : e.getKey().toString()) + " ×" + e.getValue())
        .collect(Collectors.joining(", "));
  }
}
