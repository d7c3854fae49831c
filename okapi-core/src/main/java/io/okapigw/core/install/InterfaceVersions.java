package io.okapigw.core.install;

/**
 * Okapi 6.1.5's interface version rule, as install resolves dependencies with it: versions are
 * {@code major.minor} or {@code major.minor.patch}; a requirement may list several, separated by
 * spaces ({@code "8.7 9.0"}), and the first listed with the provided major decides: the provided
 * minor (then patch) must be at least the required one.
 */
final class InterfaceVersions {

  private InterfaceVersions() {}

  /**
   * @param provided the version a module provides, e.g. {@code 16.3}
   * @param required the versions a module requires, e.g. {@code "14.2 15.0 16.0"}
   * @return whether {@code provided} satisfies {@code required}
   */
  static boolean compatible(String provided, String required) {
    int[] have = parts(provided.trim());
    if (have == null) {
      return false;
    }
    for (String one : required.split(" ")) {
      int[] want = parts(one);
      if (want == null) {
        return false;
      }
      if (want[0] == have[0]) {
        return have[1] > want[1] || have[1] == want[1] && have[2] >= want[2];
      }
    }
    return false;
  }

  /**
   * @return major, minor, patch (-1 when absent); null if not 2 or 3 numeric parts
   */
  private static int[] parts(String version) {
    String[] parts = version.split("\\.");
    if (parts.length < 2 || parts.length > 3) {
      return null;
    }
    int[] p = {0, 0, -1};
    try {
      for (int i = 0; i < parts.length; i++) {
        p[i] = Integer.parseInt(parts[i]);
      }
    } catch (NumberFormatException e) {
      return null;
    }
    return p;
  }
}
