package io.okapigw.authtoken.perms;

import java.util.List;
import java.util.Set;

/**
 * Who asks to grant permissions, and what they hold: the caller of {@code PUT
 * /perms/users/{id}/permissions} or {@code POST /users}, as its verified token says.
 *
 * @param userId the token's user, or {@code null} for the anonymous token
 * @param holds the user's permissions and the token's {@code extra_permissions}, both expanded
 *     through the tenant's permission sets
 * @param modulePermissions the token's {@code extra_permissions}, expanded (named in a refusal, as
 *     mod-permissions names them)
 */
public record Operator(String userId, Set<String> holds, List<String> modulePermissions) {

  /** Copies the collections. */
  public Operator {
    holds = Set.copyOf(holds);
    modulePermissions = List.copyOf(modulePermissions);
  }
}
