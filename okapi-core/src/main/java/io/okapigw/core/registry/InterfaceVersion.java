package io.okapigw.core.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One interface version as Okapi reads it: {@code major.minor} or {@code major.minor.patch} (a
 * missing patch is -1, lower than any). A descriptor's {@code version} may list several, separated
 * by spaces ({@code "8.7 9.0 10.0"}).
 */
public record InterfaceVersion(int major, int minor, int patch) {

  private static final Pattern NUMBER = Pattern.compile("\\d{1,9}");

  /**
   * @return the version, or empty unless it is two or three dot-separated numbers
   */
  public static Optional<InterfaceVersion> parse(String token) {
    String[] parts = token.split("\\.", -1);
    if (parts.length < 2 || parts.length > 3) {
      return Optional.empty();
    }
    for (String part : parts) {
      if (!NUMBER.matcher(part).matches()) {
        return Optional.empty();
      }
    }
    return Optional.of(
        new InterfaceVersion(
            Integer.parseInt(parts[0]),
            Integer.parseInt(parts[1]),
            parts.length == 3 ? Integer.parseInt(parts[2]) : -1));
  }

  /**
   * The versions a field lists, as Okapi 6.1.5 reads them: up to the first that is not a version
   * (Okapi's {@code InterfaceDescriptor} checks only the first when it takes a descriptor, and
   * compares versions until one does not parse).
   *
   * @return the versions; empty if the first is not one
   */
  public static List<InterfaceVersion> parseAll(String versions) {
    String[] tokens = versions.split(" ");
    List<InterfaceVersion> all = new ArrayList<>();
    for (int i = 0; i < tokens.length; i++) {
      if (i > 0 && tokens[i].isEmpty()) {
        continue;
      }
      Optional<InterfaceVersion> version = parse(tokens[i]);
      if (version.isEmpty()) {
        return all;
      }
      all.add(version.get());
    }
    return all;
  }

  /**
   * Okapi's compatibility: the same major version, and a higher minor, or the same minor and a
   * patch at least the required one.
   */
  public boolean satisfies(InterfaceVersion required) {
    return major == required.major
        && (minor > required.minor || minor == required.minor && patch >= required.patch);
  }

  @Override
  public String toString() {
    return major + "." + minor + (patch < 0 ? "" : "." + patch);
  }
}
