package io.okapigw.core.registry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Okapi's {@code /_/proxy/cleanup/modules} rule ({@code ModuleUtil.getObsolete}): within each
 * product, newest first, a pre-release or npm snapshot is obsolete once at least {@code
 * saveReleases} releases and {@code saveSnapshots} snapshots newer than it were kept; releases are
 * never obsolete by themselves.
 */
final class Obsolete {

  private Obsolete() {}

  /**
   * @return the obsolete modules, newest first
   */
  static List<ModuleDescriptor> of(
      List<ModuleDescriptor> modules, int saveReleases, int saveSnapshots) {
    List<ModuleDescriptor> sorted = new ArrayList<>(modules);
    sorted.sort(Collections.reverseOrder(Comparator.comparing(ModuleDescriptor::moduleId)));
    List<ModuleDescriptor> obsolete = new ArrayList<>();
    ModuleId previous = null;
    int releases = 0;
    int snapshots = 0;
    for (ModuleDescriptor module : sorted) {
      ModuleId id = module.moduleId();
      int diff = previous == null ? -5 : id.compareTo(previous);
      if (diff == -5) {
        releases = 0;
        snapshots = 0;
      }
      boolean snapshot = id.isPreRelease() || id.isNpmSnapshot();
      if (snapshot && releases >= saveReleases && snapshots >= saveSnapshots) {
        obsolete.add(module);
      }
      if (diff >= -1 || id.isNpmSnapshot()) {
        snapshots++;
      } else {
        snapshots = 0;
        releases++;
      }
      previous = id;
    }
    return obsolete;
  }
}
