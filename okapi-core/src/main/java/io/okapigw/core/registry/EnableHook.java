package io.okapigw.core.registry;

import io.vertx.core.Future;
import java.util.List;

/**
 * Work that must succeed before a module counts as enabled (or disabled) for a tenant, such as
 * handing its permission sets to the tenant's permissions module. A failed hook leaves the
 * registry as it was.
 */
@FunctionalInterface
public interface EnableHook {

  /**
   * @param tenant the tenant id
   * @param module the module being enabled
   * @param enabledAfter every module enabled for the tenant once this one is, itself included
   */
  Future<Void> beforeEnable(String tenant, ModuleDescriptor module,
      List<ModuleDescriptor> enabledAfter);

  /**
   * @param tenant the tenant id
   * @param module the module being disabled
   * @param enabledBefore every module enabled for the tenant before, this one included
   */
  default Future<Void> beforeDisable(String tenant, ModuleDescriptor module,
      List<ModuleDescriptor> enabledBefore) {
    return Future.succeededFuture();
  }
}
