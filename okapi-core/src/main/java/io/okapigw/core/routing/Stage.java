package io.okapigw.core.routing;

import io.okapigw.core.registry.RoutingEntry;

/**
 * One step of a request's pipeline: a module's filter or handler, and where its instances are.
 *
 * @param moduleId the module serving this step
 * @param entry the matched handler or filter
 * @param instances the module's running instances (possibly none)
 */
public record Stage(String moduleId, RoutingEntry entry, Instances instances) {

  /**
   * @return the matched path pattern (the auth cache keys on it, never on the raw path)
   */
  public String pathPattern() {
    return entry.pathPattern();
  }

  /**
   * @return Okapi's {@code X-Okapi-Filter} value for a filter: {@code "pre /items*"}
   */
  public String filterHeader() {
    return entry.phase() + " " + entry.staticPath();
  }

  /**
   * @return whether the entry asks for any permission (required, desired or module)
   */
  boolean carriesPermissions() {
    return !entry.permissionsRequired().isEmpty()
        || !entry.permissionsDesired().isEmpty()
        || !entry.modulePermissions().isEmpty();
  }
}
