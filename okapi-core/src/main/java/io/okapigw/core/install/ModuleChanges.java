package io.okapigw.core.install;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.TenantModules;
import io.okapigw.core.tenantinit.ChangeParameters;
import io.okapigw.core.tenantinit.TenantInit;
import io.vertx.core.Future;
import java.util.List;

/**
 * One change of a tenant's modules (enable, upgrade or disable) as Okapi 6.1.5 makes it: check it
 * against the tenant's modules now (unless {@code depCheck=false} or the change is a step of a
 * resolved plan), tell the modules ({@link TenantInit}: permissions, {@code _tenant}), and only
 * then record it. A failed call leaves the tenant's modules as they were.
 */
final class ModuleChanges {

  private final TenantModules modules;
  private final TenantInit init;

  ModuleChanges(TenantModules modules, TenantInit init) {
    this.modules = modules;
    this.init = init;
  }

  /**
   * @param from the module disabled or upgraded from; null when enabling
   * @param to the module enabled or upgraded to; null when disabling
   * @param check whether to check the change against the tenant's modules first
   * @return done once recorded and routing reflects it; failed naming the problem
   */
  Future<Void> run(
      String tenant,
      ModuleDescriptor from,
      ModuleDescriptor to,
      InstallOptions options,
      boolean check) {
    String fromId = from == null ? null : from.id();
    Future<List<ModuleDescriptor>> current =
        check
            ? modules.check(tenant, fromId, to)
            : modules.enabled(tenant).map(enabled -> notAgain(tenant, enabled, from, to));
    return current
        .compose(enabled -> init.change(tenant, enabled, from, to, parameters(options)))
        .compose(v -> modules.commit(tenant, fromId, to == null ? null : to.id()));
  }

  /**
   * Without checks, still no call for a module enabled already (unless it replaces itself: a
   * reinstall).
   */
  private static List<ModuleDescriptor> notAgain(
      String tenant, List<ModuleDescriptor> enabled, ModuleDescriptor from, ModuleDescriptor to) {
    if (to != null
        && (from == null || !from.id().equals(to.id()))
        && enabled.stream().anyMatch(m -> m.id().equals(to.id()))) {
      throw HttpError.badRequest("module " + to.id() + " is already enabled for tenant " + tenant);
    }
    return enabled;
  }

  /** Posts every enabled module's permissions to a permissions module upgraded by a plan. */
  Future<Void> reloadPermissions(
      String tenant, ModuleDescriptor permissionsModule, InstallOptions options) {
    if (!TenantInit.isPermissionsModule(permissionsModule)
        || !options.invokes(permissionsModule.id())) {
      return Future.succeededFuture();
    }
    return modules
        .enabled(tenant)
        .compose(enabled -> init.announceAll(tenant, enabled, permissionsModule));
  }

  private static ChangeParameters parameters(InstallOptions options) {
    return new ChangeParameters(options.purge(), options.tenantParameters(), options::invokes);
  }
}
