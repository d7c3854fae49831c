package io.okapigw.core.routing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one request runs through: the auth filter (if the tenant has one), pre filters, the
 * handler, post filters; plus the permission union the auth filter is told about.
 */
public record Pipeline(Optional<Stage> auth, List<Stage> pre, Stage handler, List<Stage> post) {

  /** @return every stage, auth filter first, in Okapi's order */
  public List<Stage> stages() {
    ArrayList<Stage> all = new ArrayList<>();
    auth.ifPresent(all::add);
    all.addAll(pre);
    all.add(handler);
    all.addAll(post);
    return all;
  }

  /** @return the union of {@code permissionsRequired} over the pipeline, in order */
  public Set<String> permissionsRequired() {
    Set<String> perms = new LinkedHashSet<>();
    stages().forEach(s -> perms.addAll(s.entry().permissionsRequired()));
    return perms;
  }

  /** @return the union of {@code permissionsDesired} over the pipeline, in order */
  public Set<String> permissionsDesired() {
    Set<String> perms = new LinkedHashSet<>();
    stages().forEach(s -> perms.addAll(s.entry().permissionsDesired()));
    return perms;
  }

  /** @return module id to its stage's {@code modulePermissions}, for non-empty lists */
  public Map<String, List<String>> modulePermissions() {
    Map<String, List<String>> perms = new LinkedHashMap<>();
    for (Stage s : stages()) {
      if (!s.entry().modulePermissions().isEmpty()) {
        perms.merge(s.moduleId(), s.entry().modulePermissions(),
            (a, b) -> List.copyOf(new LinkedHashSet<>(concat(a, b))));
      }
    }
    return perms;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    ArrayList<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
