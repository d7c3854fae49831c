package io.okapigw.core.routing;

import io.okapigw.core.registry.RoutingEntry;

/**
 * A handler or filter of one enabled module, with its compiled pattern.
 *
 * @param ownTenant the pattern with {@code {tenantId}} being the table's tenant, for entries with
 *     {@code permissionsRequiredTenant}; null for others
 */
record Route(String moduleId, RoutingEntry entry, PathPattern pattern, PathPattern ownTenant) {

  static Route of(String moduleId, RoutingEntry entry, String tenant) {
    return new Route(
        moduleId,
        entry,
        PathPattern.compile(entry.pathPattern()),
        entry.permissionsRequiredTenant() == null
            ? null
            : PathPattern.compile(entry.pathPattern().replace("{tenantId}", tenant)));
  }

  boolean matches(String method, String path) {
    return entry.servesMethod(method) && pattern.matches(path);
  }

  /**
   * @return whether {@code path} is for the table's own tenant (permissionsRequiredTenant)
   */
  boolean isOwnTenantPath(String path) {
    return ownTenant != null && ownTenant.matches(path);
  }

  /** Most specific first; an explicit method beats {@code *}; ties keep enable order. */
  int compareSpecificity(Route other) {
    int byPattern = pattern.compareSpecificity(other.pattern);
    if (byPattern != 0) {
      return byPattern;
    }
    return Boolean.compare(entry.methods().contains("*"), other.entry.methods().contains("*"));
  }
}
