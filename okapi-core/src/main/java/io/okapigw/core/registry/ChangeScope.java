package io.okapigw.core.registry;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a registry change touched, so that only what depends on it is recomputed: the tenants whose
 * own entries changed (created, renamed, deleted, their enabled modules) and the modules whose
 * descriptor or instances changed (so every tenant that enables them). Sent to the other cluster
 * members with the change, which apply it the same way.
 *
 * @param everything whether anything may have changed (a node's start, a cluster's members
 *     changed): then the sets are empty and everything is recomputed
 * @param tenants ids of the tenants whose entries changed
 * @param modules ids of the modules whose descriptor or instances changed
 */
public record ChangeScope(boolean everything, Set<String> tenants, Set<String> modules) {

  /** Nothing changed. */
  public static final ChangeScope NONE = new ChangeScope(false, Set.of(), Set.of());

  private static final ChangeScope ALL = new ChangeScope(true, Set.of(), Set.of());

  public ChangeScope {
    tenants = everything ? Set.of() : Set.copyOf(tenants);
    modules = everything ? Set.of() : Set.copyOf(modules);
  }

  /**
   * @return the scope of a change that may have touched anything
   */
  public static ChangeScope all() {
    return ALL;
  }

  /**
   * @return the scope of a change of these tenants' entries
   */
  public static ChangeScope tenants(String... ids) {
    return new ChangeScope(false, Set.of(ids), Set.of());
  }

  /**
   * @return the scope of a change of these modules' descriptors or instances
   */
  public static ChangeScope modules(Collection<String> ids) {
    return new ChangeScope(false, Set.of(), Set.copyOf(ids));
  }

  /**
   * @return what this change and {@code other} touched together
   */
  public ChangeScope merge(ChangeScope other) {
    if (everything || other.everything) {
      return ALL;
    }
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    return new ChangeScope(false, union(tenants, other.tenants), union(modules, other.modules));
  }

  /**
   * @return whether the change touched nothing
   */
  public boolean isEmpty() {
    return !everything && tenants.isEmpty() && modules.isEmpty();
  }

  /**
   * @return the scope as sent to the other cluster members
   */
  public JsonObject toJson() {
    return new JsonObject()
        .put("everything", everything)
        .put("tenants", new JsonArray(tenants.stream().sorted().toList()))
        .put("modules", new JsonArray(modules.stream().sorted().toList()));
  }

  /**
   * @param json the scope as {@link #toJson} wrote it; null (a member of an older version, which
   *     sends none) means everything
   */
  public static ChangeScope fromJson(JsonObject json) {
    if (json == null || json.getBoolean("everything", true)) {
      return ALL;
    }
    return new ChangeScope(false, strings(json, "tenants"), strings(json, "modules"));
  }

  private static Set<String> strings(JsonObject json, String key) {
    JsonArray array = json.getJsonArray(key, new JsonArray());
    Set<String> found = new TreeSet<>();
    for (int i = 0; i < array.size(); i++) {
      found.add(array.getString(i));
    }
    return found;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> both = new TreeSet<>(a);
    both.addAll(b);
    return both;
  }
}
