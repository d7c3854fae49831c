package io.okapigw.core.registry;

import io.vertx.core.json.JsonObject;
import java.util.Arrays;

/**
 * A required (or optional) interface: id plus one or more acceptable versions separated by
 * spaces, as in Okapi ({@code "8.7 9.0 10.0"}).
 */
public record InterfaceReference(String id, String version) {

  static InterfaceReference fromJson(JsonObject json, String where) {
    return new InterfaceReference(JsonFields.requiredString(json, "id", where),
        JsonFields.requiredString(json, "version", where));
  }

  /**
   * Okapi's compatibility rule: same major version and a provided minor at least the required
   * one, for any of the listed versions.
   *
   * @param provided the version an enabled module provides
   * @return whether {@code provided} satisfies this reference
   */
  public boolean isSatisfiedBy(String provided) {
    int[] have = parse(provided);
    return have != null && Arrays.stream(version.trim().split("\\s+"))
        .map(InterfaceReference::parse)
        .anyMatch(want -> want != null && want[0] == have[0] && have[1] >= want[1]);
  }

  private static int[] parse(String version) {
    String[] parts = version.trim().split("\\.");
    try {
      return new int[] {Integer.parseInt(parts[0]),
          parts.length > 1 ? Integer.parseInt(parts[1]) : 0};
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return id + " " + version;
  }
}
