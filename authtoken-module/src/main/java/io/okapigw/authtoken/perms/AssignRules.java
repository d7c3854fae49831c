package io.okapigw.authtoken.perms;

import io.okapigw.authtoken.http.ApiException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Which permissions a caller may grant a user, as FOLIO's mod-permissions 6.5.0 decides ({@code
 * PermsAPI.checkOperatingPermissions}): a permission the caller holds, always; else a permission
 * named {@code okapi.*} (or {@value #ASSIGN_OKAPI} itself) only with {@value #ASSIGN_OKAPI}, and a
 * permission a module descriptor defined (immutable, {@link PermissionGraph#defines}) only with
 * {@value #ASSIGN_IMMUTABLE}. A name no module defined is not refused here (mod-permissions answers
 * 422 for it; this module has always stored such names), unless it is an {@code okapi.*} one.
 */
public final class AssignRules {
  /** Needed to grant a permission named {@code okapi.*} the caller does not hold. */
  public static final String ASSIGN_OKAPI = "perms.users.assign.okapi";

  /** Needed to grant a permission a module descriptor defined that the caller does not hold. */
  public static final String ASSIGN_IMMUTABLE = "perms.users.assign.immutable";

  private AssignRules() {}

  /**
   * @param operator the caller
   * @param graph the tenant's permission sets
   * @param added the permissions the request gives the user that it did not have
   * @throws ApiException 403 with mod-permissions' text ({@code Cannot add okapi permission
   *     okapi.all not owned by operating user <id>}), naming every name refused of the first rule
   *     broken
   */
  public static void check(Operator operator, PermissionGraph graph, Collection<String> added) {
    boolean okapi = operator.holds().contains(ASSIGN_OKAPI);
    boolean immutable = operator.holds().contains(ASSIGN_IMMUTABLE);
    List<String> failedOkapi = new ArrayList<>();
    List<String> failedImmutable = new ArrayList<>();
    for (String name : added) {
      if (operator.holds().contains(name)) {
        continue;
      }
      if (!okapi && isOkapi(name)) {
        failedOkapi.add(name);
      }
      if (!immutable && graph.defines(name)) {
        failedImmutable.add(name);
      }
    }
    refuse("okapi", failedOkapi, operator);
    refuse("immutable", failedImmutable, operator);
  }

  /**
   * @param name a permission name @return whether only {@value #ASSIGN_OKAPI} lets a caller grant
   *     it
   */
  public static boolean isOkapi(String name) {
    return name.startsWith("okapi.") || name.equals(ASSIGN_OKAPI);
  }

  private static void refuse(String type, List<String> failed, Operator operator) {
    if (failed.isEmpty()) {
      return;
    }
    List<String> module = operator.modulePermissions();
    throw ApiException.forbidden(
        "Cannot add "
            + type
            + (failed.size() > 1 ? " permissions " : " permission ")
            + String.join(", ", failed)
            + " not owned by operating user "
            + operator.userId()
            + (module.isEmpty() ? "" : ", modulePermissions: " + String.join(", ", module)));
  }
}
