package io.okapigw.authtoken.users;

import io.okapigw.authtoken.users.UserDirectory.ActiveUser;
import io.vertx.core.Future;

/**
 * Where the auth filter learns whether a token's user is active and what it holds: this module's
 * own store ({@link UserDirectory}, the default) or, with {@code --user-lookup gateway}, mod-users
 * and mod-permissions through the gateway.
 */
@FunctionalInterface
public interface UserSource {

  /**
   * @param tenant tenant id
   * @param userId the token's user
   * @param okapiUrl the gateway's {@code X-Okapi-Url} from the filter call, or {@code null}
   * @param requestId {@code X-Okapi-Request-Id}, or {@code null}
   * @return the active user with its expanded permissions; failed with an {@link
   *     io.okapigw.authtoken.http.ApiException}: 401 if unknown or inactive
   */
  Future<ActiveUser> activeUser(String tenant, String userId, String okapiUrl, String requestId);

  /**
   * @return the store's users, as cached by {@code directory}
   */
  static UserSource local(UserDirectory directory) {
    return (tenant, userId, okapiUrl, requestId) -> directory.activeUser(tenant, userId);
  }
}
