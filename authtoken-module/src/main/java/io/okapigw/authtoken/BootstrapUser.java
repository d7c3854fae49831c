package io.okapigw.authtoken;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A user created or updated at every start (idempotent): how a first admin comes to exist.
 *
 * @param tenant tenant id
 * @param username login name
 * @param password password (never logged; {@link #toString()} hides it)
 * @param permissions permission names to grant (replacing the user's permissions)
 */
public record BootstrapUser(String tenant, String username, String password, List<String> permissions) {

  /** Checks and copies the fields. */
  public BootstrapUser {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
    permissions = List.copyOf(permissions);
  }

  /**
   * Parses {@code TENANT:USERNAME:PASSWORD:perm1,perm2}. The password may contain
   * colons (tenant and username end at the first two, permissions start after the last).
   *
   * @param spec the specification
   * @return the user
   * @throws IllegalArgumentException if a part is missing
   */
  public static BootstrapUser parse(String spec) {
    int first = spec.indexOf(':');
    int second = first < 0 ? -1 : spec.indexOf(':', first + 1);
    int last = spec.lastIndexOf(':');
    if (first <= 0 || second <= first + 1 || last <= second + 1) {
      throw new IllegalArgumentException("--bootstrap must be TENANT:USERNAME:PASSWORD:perm1,perm2");
    }
    if (!spec.substring(0, first).matches("[A-Za-z0-9_-]{1,64}")) {
      throw new IllegalArgumentException("--bootstrap: tenant must be 1-64 letters, digits, '_' or '-'");
    }
    List<String> perms = Arrays.stream(spec.substring(last + 1).split(","))
        .map(String::trim).filter(p -> !p.isEmpty()).toList();
    return new BootstrapUser(spec.substring(0, first), spec.substring(first + 1, second),
        spec.substring(second + 1, last), perms);
  }

  @Override
  public String toString() {
    return "BootstrapUser[" + tenant + ":" + username + ", permissions=" + permissions + "]";
  }
}
