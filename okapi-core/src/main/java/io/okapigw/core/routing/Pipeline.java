package io.okapigw.core.routing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What one request runs through: the auth filter (if the tenant has one), pre filters, the handler,
 * post filters; plus what the auth filter is told about them.
 *
 * @param auth the tenant's auth filter, if any
 * @param pre the pre filters, in order
 * @param handler the handler
 * @param post the post filters, in order
 * @param redirects the {@code redirect} entries the request passed through (never called; their
 *     permissions count)
 * @param handlerPath the path the handler and the filters get: the request's path, or where the
 *     redirects led
 * @param moduleScoped whether the handler was chosen by {@code X-Okapi-Module-Id} among the
 *     providers of a {@code multiple} interface
 * @param systemPermissionSets whether module permissions go to the auth filter as Okapi's {@code
 *     SYS#...} permission set names (the tenant's {@code _tenantPermissions} provider is 1.1 or
 *     later)
 * @param ownTenantPath whether the handler has {@code permissionsRequiredTenant} and the path names
 *     the request's own tenant: then a caller with a token needs only those
 */
public record Pipeline(
    Optional<Stage> auth,
    List<Stage> pre,
    Stage handler,
    List<Stage> post,
    List<Stage> redirects,
    String handlerPath,
    boolean moduleScoped,
    boolean systemPermissionSets,
    boolean ownTenantPath) {

  /**
   * @return every stage that is called, auth filter first, in Okapi's order
   */
  public List<Stage> stages() {
    ArrayList<Stage> all = new ArrayList<>(2 + pre.size() + post.size());
    auth.ifPresent(all::add);
    all.addAll(pre);
    all.add(handler);
    all.addAll(post);
    return all;
  }

  /**
   * @return the union of {@code permissionsRequired} over the pipeline and its redirects
   */
  public Set<String> permissionsRequired() {
    return permissionsRequired(false);
  }

  /**
   * @param withToken whether the request carries a token
   * @return the union of {@code permissionsRequired} over the pipeline and its redirects, the
   *     handler's {@code permissionsRequiredTenant} instead when it applies (Okapi's rule)
   */
  public Set<String> permissionsRequired(boolean withToken) {
    boolean ownTenant = withToken && ownTenantPath;
    return union(
        s ->
            ownTenant && s == handler
                ? s.entry().permissionsRequiredTenant()
                : s.entry().permissionsRequired());
  }

  /**
   * @return the union of {@code permissionsDesired} over the pipeline and its redirects
   */
  public Set<String> permissionsDesired() {
    return union(s -> s.entry().permissionsDesired());
  }

  /**
   * @return module id to the module permissions of its called stages (non-empty lists only), or to
   *     their {@code SYS#} set names when {@link #systemPermissionSets()}
   */
  public Map<String, List<String>> modulePermissions() {
    Map<String, Set<String>> perms = new LinkedHashMap<>();
    for (Stage s : stages()) {
      if (!s.entry().modulePermissions().isEmpty()) {
        perms.computeIfAbsent(s.moduleId(), k -> new LinkedHashSet<>()).addAll(moduleGrant(s));
      }
    }
    Map<String, List<String>> lists = new LinkedHashMap<>();
    perms.forEach((module, set) -> lists.put(module, List.copyOf(set)));
    return lists;
  }

  /**
   * @return the module permissions of the redirects (Okapi's X-Okapi-Extra-Permissions)
   */
  public Set<String> extraPermissions() {
    Set<String> extra = new LinkedHashSet<>();
    redirects.forEach(s -> extra.addAll(moduleGrant(s)));
    return extra;
  }

  /**
   * The route part of the auth cache key: the handler's path pattern; prefixed by its module when
   * it was chosen by module id; followed by every other stage that asks for permissions, so that
   * requests matching one handler pattern but different filters or redirects never share a
   * decision.
   */
  public String cacheRoute() {
    String route =
        moduleScoped ? handler.moduleId() + " " + handler.pathPattern() : handler.pathPattern();
    if (ownTenantPath) {
      route = route + " (own tenant)";
    }
    StringBuilder extra = null;
    for (List<Stage> stages : List.of(pre, post, redirects)) {
      for (Stage s : stages) {
        if (s.carriesPermissions()) {
          extra =
              (extra == null ? new StringBuilder(route) : extra)
                  .append(" + ")
                  .append(s.moduleId())
                  .append(' ')
                  .append(s.entry().staticPath());
        }
      }
    }
    return extra == null ? route : extra.toString();
  }

  private List<String> moduleGrant(Stage s) {
    if (s.entry().modulePermissions().isEmpty()) {
      return List.of();
    }
    return systemPermissionSets
        ? List.of(s.entry().systemPermissionName(s.moduleId()))
        : s.entry().modulePermissions();
  }

  private Set<String> union(Function<Stage, List<String>> field) {
    Set<String> perms = new LinkedHashSet<>();
    stages().forEach(s -> perms.addAll(field.apply(s)));
    redirects.forEach(s -> perms.addAll(field.apply(s)));
    return perms;
  }
}
