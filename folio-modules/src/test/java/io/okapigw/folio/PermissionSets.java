package io.okapigw.folio;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** Permission sets of a group of descriptors, expanded the way an auth module expands them. */
final class PermissionSets {

  private final Map<String, Set<String>> subPermissions = new HashMap<>();

  PermissionSets(Collection<JsonObject> descriptors) {
    for (JsonObject descriptor : descriptors) {
      for (Object p : descriptor.getJsonArray("permissionSets", new JsonArray())) {
        JsonObject set = (JsonObject) p;
        Set<String> subs = new LinkedHashSet<>();
        set.getJsonArray("subPermissions", new JsonArray()).forEach(s -> subs.add((String) s));
        subPermissions.put(set.getString("permissionName"), subs);
      }
    }
  }

  /**
   * @return the permissions and, recursively, every sub-permission of those that are sets
   */
  Set<String> expand(Collection<String> permissions) {
    Set<String> all = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>(permissions);
    while (!todo.isEmpty()) {
      String next = todo.pop();
      if (all.add(next)) {
        todo.addAll(subPermissions.getOrDefault(next, Set.of()));
      }
    }
    return all;
  }

  /**
   * @return whether {@code name} is defined by some descriptor
   */
  boolean defines(String name) {
    return subPermissions.containsKey(name);
  }
}
