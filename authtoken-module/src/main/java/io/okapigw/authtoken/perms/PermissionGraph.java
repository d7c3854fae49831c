package io.okapigw.authtoken.perms;

import io.okapigw.authtoken.store.PermissionSetRecord;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A tenant's permission sets: which names each set grants. Expansion is recursive and tolerates
 * cycles (a name already reached is not followed again); each name's closure is computed once and
 * memoized. Sets of the same name from several modules are merged. Immutable apart from the memo;
 * safe for concurrent use.
 */
public final class PermissionGraph {
  /** A graph without sets: every name expands to itself. */
  public static final PermissionGraph EMPTY = new PermissionGraph(Map.of());

  private final Map<String, List<String>> children;
  private final Set<String> defined;
  private final Map<String, Set<String>> closures = new ConcurrentHashMap<>();

  private PermissionGraph(Map<String, List<String>> children) {
    this.children = children;
    Set<String> names = new HashSet<>(children.keySet());
    children.values().forEach(names::addAll);
    this.defined = Set.copyOf(names);
  }

  /**
   * @param sets permission sets as stored @return their graph
   */
  public static PermissionGraph of(Collection<PermissionSetRecord> sets) {
    Map<String, Set<String>> merged = new HashMap<>();
    sets.forEach(
        s ->
            merged
                .computeIfAbsent(s.permissionName(), k -> new LinkedHashSet<>())
                .addAll(s.subPermissions()));
    Map<String, List<String>> children = new HashMap<>();
    merged.forEach((name, subs) -> children.put(name, List.copyOf(subs)));
    return new PermissionGraph(children);
  }

  /**
   * @param name a permission name @return the name and every name it grants, directly or not
   */
  public Set<String> closure(String name) {
    Set<String> memo = closures.get(name);
    if (memo == null) {
      memo = Set.copyOf(walk(name));
      closures.putIfAbsent(name, memo);
    }
    return memo;
  }

  /**
   * @param names permission names @return the names and every name they grant
   */
  public Set<String> expand(Collection<String> names) {
    if (names.size() == 1) {
      return closure(names.iterator().next());
    }
    Set<String> all = new HashSet<>();
    names.forEach(n -> all.addAll(closure(n)));
    return all;
  }

  /**
   * A name a module descriptor defined for the tenant (posted by {@code _tenantPermissions}, as a
   * set or as one of a set's sub-permissions): what FOLIO's mod-permissions stores as an immutable
   * permission ({@code mutable: false}), dummies for sub-permissions included.
   *
   * @param name a permission name
   * @return whether a module's descriptor defined it
   */
  public boolean defines(String name) {
    return defined.contains(name);
  }

  /**
   * @return how many sets the graph knows
   */
  public int size() {
    return children.size();
  }

  private Set<String> walk(String start) {
    Set<String> seen = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>();
    todo.push(start);
    while (!todo.isEmpty()) {
      String name = todo.pop();
      if (seen.add(name)) {
        Set<String> known = closures.get(name);
        if (known != null) {
          seen.addAll(known);
        } else {
          children.getOrDefault(name, List.of()).forEach(todo::push);
        }
      }
    }
    return seen;
  }
}
