package io.okapigw.authtoken.store;

/**
 * A change to a user's account; {@code null} fields stay as they are.
 *
 * @param username new login name, or {@code null}
 * @param active new state, or {@code null}
 * @param passwordHash new encoded password hash, or {@code null}
 */
public record UserUpdate(String username, Boolean active, String passwordHash) {

  @Override
  public String toString() {
    return "UserUpdate[username="
        + username
        + ", active="
        + active
        + (passwordHash == null ? "" : ", new password")
        + "]";
  }
}
