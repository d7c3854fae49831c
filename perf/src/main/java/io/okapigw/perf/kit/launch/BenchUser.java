package io.okapigw.perf.kit.launch;

import java.util.List;

/**
 * The user a benchmark logs in as, created by the auth module at start (its bootstrap user).
 *
 * @param tenant tenant id
 * @param username login name
 * @param password password
 * @param permissions what the user may do
 */
public record BenchUser(String tenant, String username, String password, List<String> permissions) {

  /**
   * @return {@code bench / bench} of tenant {@code bench} with {@code permissions}
   */
  public static BenchUser bench(List<String> permissions) {
    return new BenchUser("bench", "bench", "bench", List.copyOf(permissions));
  }

  /**
   * @return the auth module's {@code --bootstrap} value for this user
   */
  public String bootstrapSpec() {
    return tenant + ":" + username + ":" + password + ":" + String.join(",", permissions);
  }
}
