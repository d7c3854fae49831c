package io.okapigw.core.install;

import java.util.Collection;

/**
 * A module id split as Okapi splits it: the product up to the first {@code -} followed by a
 * digit, then the version ({@code mod-users-19.2.0} is product {@code mod-users}, version
 * {@code 19.2.0}). An id without such a version (or whose version does not parse) is a product
 * alone, which install requests use to mean "the newest registered version".
 */
final class ModuleId implements Comparable<ModuleId> {

  private final String id;
  private final String product;
  private final SemVer version;

  private ModuleId(String id, String product, SemVer version) {
    this.id = id;
    this.product = product;
    this.version = version;
  }

  static ModuleId parse(String id) {
    for (int i = 0; i < id.length() - 1; i++) {
      if (id.charAt(i) == '-' && Character.isDigit(id.charAt(i + 1))) {
        try {
          return new ModuleId(id, id.substring(0, i), SemVer.parse(id.substring(i + 1)));
        } catch (IllegalArgumentException e) {
          return new ModuleId(id, id, null);
        }
      }
    }
    return new ModuleId(id, id, null);
  }

  /** @return the product of a module id: {@code mod-users} for {@code mod-users-19.2.0} */
  static String product(String id) {
    return parse(id).product;
  }

  String id() {
    return id;
  }

  String product() {
    return product;
  }

  boolean hasVersion() {
    return version != null;
  }

  boolean isPreRelease() {
    return version != null && version.hasPreRelease();
  }

  boolean isNpmSnapshot() {
    return version != null && version.isNpmSnapshot();
  }

  /**
   * @param ids module ids to look among
   * @return the newest id of this one's product among {@code ids} and this one (so this id if
   *     none is newer)
   */
  String newestOf(Collection<String> ids) {
    ModuleId newest = this;
    for (String other : ids) {
      ModuleId candidate = parse(other);
      if (candidate.product.equals(product) && candidate.compareTo(newest) > 0) {
        newest = candidate;
      }
    }
    return newest.id;
  }

  /** Orders by product, then version; a product without version is below its versions. */
  @Override
  public int compareTo(ModuleId other) {
    int c = product.compareTo(other.product);
    if (c != 0) {
      return c;
    }
    if (version == null || other.version == null) {
      return version == null ? (other.version == null ? 0 : -1) : 1;
    }
    return version.compareTo(other.version);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ModuleId m && id.equals(m.id);
  }

  @Override
  public int hashCode() {
    return id.hashCode();
  }

  @Override
  public String toString() {
    return id;
  }
}
