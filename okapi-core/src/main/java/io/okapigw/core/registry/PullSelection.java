package io.okapigw.core.registry;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Which of the descriptors a pull found are registered, as Okapi's pull chooses: those whose
 * dependencies are met, the others left out without failing the pull ({@code createList} with
 * {@code removeIfMissingDep}).
 *
 * @param kept the candidates to register, in order; their dependencies are met
 * @param leftOut each candidate left out, by id, with its first unmet requirement
 */
public record PullSelection(List<ModuleDescriptor> kept, Map<String, String> leftOut) {

  /**
   * @param registered the modules registered now
   * @param candidates the descriptors pulled, none of them registered
   */
  public static PullSelection of(
      Collection<ModuleDescriptor> registered, List<ModuleDescriptor> candidates) {
    Map<String, String> leftOut = Dependencies.leftOutUnmet(registered, candidates);
    return new PullSelection(
        candidates.stream().filter(m -> !leftOut.containsKey(m.id())).toList(),
        Collections.unmodifiableMap(leftOut));
  }
}
