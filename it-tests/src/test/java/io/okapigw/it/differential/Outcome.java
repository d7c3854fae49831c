package io.okapigw.it.differential;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A step's two answers and how they differ.
 *
 * @param step the step
 * @param okapi Okapi's answer
 * @param ours our gateway's answer
 * @param differences every aspect in which they differ
 */
record Outcome(Step step, Answer okapi, Answer ours, List<Difference> differences) {

  /**
   * @return differences that matter and the script does not accept
   */
  List<Difference> unexplained() {
    return differences.stream().filter(d -> d.aspect().matters() && !explained(d)).toList();
  }

  /**
   * @return differences the script accepts with a reason
   */
  List<Difference> accepted() {
    return differences.stream().filter(this::explained).toList();
  }

  /**
   * @return why the script accepts the difference, or null: a different status explains every other
   *     difference of the answer (it is another answer)
   */
  String reason(Difference d) {
    String reason = step.accepted().get(d.aspect());
    return reason != null ? reason : step.accepted().get(Aspect.STATUS);
  }

  private boolean explained(Difference d) {
    return reason(d) != null;
  }

  /**
   * @return aspects the script says differ but did not: a stale reason
   */
  Set<Aspect> stale() {
    Set<Aspect> stale = new TreeSet<>(step.accepted().keySet());
    differences.forEach(d -> stale.remove(d.aspect()));
    return stale;
  }

  /**
   * @return whether only error texts differ (ours name the tenant, module or path)
   */
  boolean messageOnly() {
    return !differences.isEmpty()
        && differences.stream().allMatch(d -> d.aspect() == Aspect.MESSAGE);
  }
}
