package io.okapigw.core.registry;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * A required (or optional) interface: id plus one or more acceptable versions separated by spaces,
 * as in Okapi ({@code "8.7 9.0 10.0"}).
 *
 * @param scope the descriptor's {@code scope} list (empty if none), for {@code ?require&scope}
 */
public record InterfaceReference(String id, String version, List<String> scope) {

  /** A reference without scope. */
  public InterfaceReference(String id, String version) {
    this(id, version, List.of());
  }

  /**
   * Reads a required or optional interface as Okapi reads it: an {@code optional} one Okapi took
   * without id or version has an empty one, which nothing satisfies.
   */
  static InterfaceReference fromJson(JsonObject json) {
    String id = JsonFields.text(json, "id");
    String version = JsonFields.text(json, "version");
    return new InterfaceReference(
        id == null ? "" : id, version == null ? "" : version, JsonFields.texts(json, "scope"));
  }

  /**
   * Okapi's compatibility rule, for any of the listed versions: the same major version, and a
   * higher minor or the same minor and at least the patch ({@link InterfaceVersion#satisfies}).
   *
   * @param provided the version a module provides (its first one, as Okapi reads it)
   * @return whether {@code provided} satisfies this reference
   */
  public boolean isSatisfiedBy(String provided) {
    Optional<InterfaceVersion> have = InterfaceVersion.parseAll(provided).stream().findFirst();
    return have.isPresent()
        && InterfaceVersion.parseAll(version).stream().anyMatch(want -> have.get().satisfies(want));
  }

  @Override
  public String toString() {
    return id + " " + version;
  }
}
