package io.okapigw.core.registry;

import java.util.Optional;

/**
 * A module id read as Okapi 6.1.5 reads it (okapi-common's {@code ModuleId}): the product, then a
 * semantic version starting at the first {@code -} followed by a digit ({@code
 * mod-users-19.2.0-SNAPSHOT.7} is product {@code mod-users}, version {@code 19.2.0-SNAPSHOT.7}).
 * Ids order by product, then version.
 *
 * @param id the id as given
 * @param product the id without its version
 * @param version the version; empty for a bare product ({@code mod-users})
 */
public record ModuleId(String id, String product, Optional<SemVer> version)
    implements Comparable<ModuleId> {

  /**
   * @param id a module id or a bare product name
   * @throws IllegalArgumentException if what follows the product is not a semantic version, naming
   *     the problem in Okapi's words
   */
  public static ModuleId parse(String id) {
    int start = versionStart(id);
    if (start < 0) {
      return new ModuleId(id, id, Optional.empty());
    }
    return new ModuleId(
        id, id.substring(0, start - 1), Optional.of(SemVer.parse(id.substring(start))));
  }

  /**
   * Reads an id stored before ids were checked: one whose version does not parse counts as a
   * product without a version (so it still sorts and filters, after the versioned ones).
   */
  public static ModuleId lenient(String id) {
    try {
      return parse(id);
    } catch (IllegalArgumentException e) {
      return new ModuleId(id, id, Optional.empty());
    }
  }

  private static int versionStart(String id) {
    for (int i = 0; i < id.length() - 1; i++) {
      if (id.charAt(i) == '-' && Character.isDigit(id.charAt(i + 1))) {
        return i + 1;
      }
    }
    return -1;
  }

  /**
   * @return whether the id has a version ({@code mod-users-19.2.0}, not {@code mod-users})
   */
  public boolean hasVersion() {
    return version.isPresent();
  }

  /**
   * @return whether the version is a pre-release ({@code -SNAPSHOT...})
   */
  public boolean isPreRelease() {
    return version.map(SemVer::isPreRelease).orElse(false);
  }

  /**
   * @return whether the version looks like a FOLIO npm snapshot ({@code 1.2.100012})
   */
  public boolean isNpmSnapshot() {
    return version.map(SemVer::isNpmSnapshot).orElse(false);
  }

  /**
   * Okapi's {@code filter}: the same product, and this version starts with the filter's, if it has
   * one ({@code mod-users-19} matches {@code mod-users-19.2.0}; {@code mod-user} matches nothing).
   */
  public boolean matches(ModuleId filter) {
    if (!product.equals(filter.product) || version.isEmpty()) {
      return false;
    }
    return filter.version.map(prefix -> version.get().hasPrefix(prefix)).orElse(true);
  }

  /**
   * Okapi's order, with its levels: ±5 the product differs, ±4 to ±1 as {@link SemVer}, an id with
   * a version after one without; 0 equal.
   */
  @Override
  public int compareTo(ModuleId other) {
    int products = product.compareTo(other.product);
    if (products != 0) {
      return products > 0 ? 5 : -5;
    }
    if (version.isEmpty() || other.version.isEmpty()) {
      return version.isEmpty() ? (other.version.isEmpty() ? 0 : -4) : 4;
    }
    return version.get().compareTo(other.version.get());
  }
}
