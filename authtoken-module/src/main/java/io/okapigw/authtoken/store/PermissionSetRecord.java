package io.okapigw.authtoken.store;

import java.util.List;
import java.util.Objects;

/**
 * A permission (set) a module defines for a tenant, as posted to {@code /_/tenantPermissions}.
 *
 * @param moduleId id of the module that defines it
 * @param permissionName its name
 * @param subPermissions names it grants (permissions or further sets; cycles are tolerated)
 */
public record PermissionSetRecord(
    String moduleId, String permissionName, List<String> subPermissions) {

  /** Checks and copies the fields. */
  public PermissionSetRecord {
    Objects.requireNonNull(moduleId, "moduleId");
    Objects.requireNonNull(permissionName, "permissionName");
    subPermissions = subPermissions == null ? List.of() : List.copyOf(subPermissions);
  }
}
