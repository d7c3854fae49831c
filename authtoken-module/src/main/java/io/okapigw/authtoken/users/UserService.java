package io.okapigw.authtoken.users;

import io.okapigw.authtoken.gateway.GatewayNotifier;
import io.okapigw.authtoken.password.PasswordHasher;
import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.UserRecord;
import io.okapigw.authtoken.store.UserUpdate;
import io.vertx.core.Future;
import java.util.List;

/**
 * Creating and changing users and their permissions. Every change drops the user from the {@link
 * UserDirectory} before it is acknowledged (effective at once) and tells the gateway to drop the
 * user's cached decisions.
 */
public final class UserService {
  private final AuthStore store;
  private final UserDirectory directory;
  private final PasswordHasher hasher;
  private final GatewayNotifier gateway;

  /**
   * @param store the store
   * @param directory the filter's user cache
   * @param hasher password hashing
   * @param gateway gateway invalidation
   */
  public UserService(
      AuthStore store, UserDirectory directory, PasswordHasher hasher, GatewayNotifier gateway) {
    this.store = store;
    this.directory = directory;
    this.hasher = hasher;
    this.gateway = gateway;
  }

  /**
   * @param user the new user (its {@code passwordHash} ignored)
   * @param password its password, or {@code null} (can't log in until one is set)
   * @return the stored user; 422 if the id or username is taken
   */
  public Future<UserRecord> create(UserRecord user, String password) {
    return hashOrNull(password)
        .map(
            hash ->
                new UserRecord(
                    user.tenant(),
                    user.id(),
                    user.username(),
                    user.active(),
                    hash,
                    user.permissions()))
        .compose(u -> store.insertUser(u).map(u))
        .onSuccess(u -> directory.invalidate(u.tenant(), u.id()));
  }

  /**
   * @param tenant tenant id
   * @param id user id
   * @param username new username or {@code null}
   * @param active new state or {@code null}
   * @param password new password or {@code null}
   * @return the user after the change; 404 unknown, 422 username taken
   */
  public Future<UserRecord> update(
      String tenant, String id, String username, Boolean active, String password) {
    return hashOrNull(password)
        .compose(hash -> store.updateUser(tenant, id, new UserUpdate(username, active, hash)))
        .compose(u -> changed(tenant, id).map(u));
  }

  /**
   * @param tenant tenant id
   * @param id user id
   * @param permissions the user's new permissions
   * @return done; 404 unknown user
   */
  public Future<Void> setPermissions(String tenant, String id, List<String> permissions) {
    return store.setPermissions(tenant, id, permissions).compose(v -> changed(tenant, id));
  }

  /**
   * Sets a new password. Auth decisions don't depend on it, so the gateway is not told.
   *
   * @param tenant tenant id
   * @param id user id
   * @param password the new password
   * @return done; 404 unknown user
   */
  public Future<Void> changePassword(String tenant, String id, String password) {
    return hasher
        .hash(password)
        .compose(hash -> store.updateUser(tenant, id, new UserUpdate(null, null, hash)))
        .mapEmpty();
  }

  /**
   * @param tenant tenant id @param id user id @return the user, or {@code null}
   */
  public Future<UserRecord> find(String tenant, String id) {
    return store.findUser(tenant, id);
  }

  /**
   * @param tenant tenant id @param username login name @return the user, or {@code null}
   */
  public Future<UserRecord> findByUsername(String tenant, String username) {
    return store.findUserByUsername(tenant, username);
  }

  private Future<Void> changed(String tenant, String id) {
    directory.invalidate(tenant, id);
    return gateway.invalidateUser(tenant, id);
  }

  private Future<String> hashOrNull(String password) {
    return password == null ? Future.succeededFuture(null) : hasher.hash(password);
  }
}
