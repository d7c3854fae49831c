package io.okapigw.authtoken.store;

import java.util.List;
import java.util.Objects;

/**
 * A user as stored.
 *
 * @param tenant tenant id
 * @param id user id (unique per tenant)
 * @param username login name (unique per tenant)
 * @param active whether the user may log in and use tokens
 * @param passwordHash encoded password hash ({@code $pbkdf2-sha256$...}), {@code null} if none
 * @param permissions permission names granted directly (sets are expanded when checking)
 */
public record UserRecord(
    String tenant,
    String id,
    String username,
    boolean active,
    String passwordHash,
    List<String> permissions) {

  /** Checks and copies the fields. */
  public UserRecord {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(username, "username");
    permissions = permissions == null ? List.of() : List.copyOf(permissions);
  }

  /**
   * @return this user without its password hash (what caches keep)
   */
  public UserRecord withoutPasswordHash() {
    return new UserRecord(tenant, id, username, active, null, permissions);
  }

  /**
   * @param perms new permission names @return a copy with these permissions
   */
  public UserRecord withPermissions(List<String> perms) {
    return new UserRecord(tenant, id, username, active, passwordHash, perms);
  }

  @Override
  public String toString() {
    return "UserRecord[" + tenant + "/" + id + " " + username + (active ? "" : " inactive") + "]";
  }
}
