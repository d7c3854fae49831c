package io.okapigw.core.timer;

import java.util.Optional;

/**
 * Okapi's id of a timer within a tenant: {@code <product>_<seq>}, e.g. {@code mod-circulation_2}
 * for the third handler of mod-circulation's {@code _timer} interface, whatever its version (so a
 * changed timer keeps its change across an upgrade, as in Okapi).
 *
 * @param product the module id without its version ({@code mod-foo-1.2.3}: {@code mod-foo})
 * @param seq the handler's index in the {@code _timer} interface, from 0
 */
record TimerId(String product, int seq) {

  /**
   * @return the timer id, or empty if {@code id} is not {@code <product>_<seq>}
   */
  static Optional<TimerId> parse(String id) {
    int sep = id == null ? -1 : id.lastIndexOf('_');
    if (sep <= 0) {
      return Optional.empty();
    }
    try {
      int seq = Integer.parseInt(id.substring(sep + 1));
      return seq < 0 ? Optional.empty() : Optional.of(new TimerId(id.substring(0, sep), seq));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * Okapi's rule ({@code ModuleId.getProduct}): the version starts at the first hyphen followed by
   * a digit.
   *
   * @return the product of a module id
   */
  static String productOf(String moduleId) {
    for (int i = 0; i < moduleId.length() - 1; i++) {
      if (moduleId.charAt(i) == '-' && Character.isDigit(moduleId.charAt(i + 1))) {
        return moduleId.substring(0, i);
      }
    }
    return moduleId;
  }

  @Override
  public String toString() {
    return product + "_" + seq;
  }
}
