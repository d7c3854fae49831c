package io.okapigw.core.tenantinit;

import java.util.function.Predicate;

/**
 * What the modules are told when a module is enabled, upgraded or disabled for a tenant.
 *
 * @param purge a disabled module is to drop the tenant's data; an enabled one is first told to drop
 *     it, then enabled afresh (Okapi's {@code purge})
 * @param tenantParameters {@code key=value,...} for {@code _tenant} 1.2 and 2.0, or null
 * @param invokes which modules are called at all (Okapi's {@code invoke}); the others are changed
 *     without a call
 */
public record ChangeParameters(boolean purge, String tenantParameters, Predicate<String> invokes) {

  /** Call every module, no purge, no tenant parameters. */
  public static final ChangeParameters DEFAULTS = new ChangeParameters(false, null, id -> true);
}
