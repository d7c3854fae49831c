package io.okapigw.authtoken.users;

import io.okapigw.authtoken.gateway.GatewayNotifier;
import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.password.PasswordHasher;
import io.okapigw.authtoken.perms.AssignRules;
import io.okapigw.authtoken.perms.Operator;
import io.okapigw.authtoken.perms.PermissionSets;
import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.UserRecord;
import io.okapigw.authtoken.store.UserUpdate;
import io.vertx.core.Future;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Creating and changing users and their permissions. Every change drops the user from the {@link
 * UserDirectory} before it is acknowledged (effective at once) and tells the gateway to drop the
 * user's cached decisions. A change made for a caller ({@link Operator}) gives the user only
 * permissions the caller may grant ({@link AssignRules}); a refused change changes nothing.
 */
public final class UserService {
  private final AuthStore store;
  private final UserDirectory directory;
  private final PasswordHasher hasher;
  private final GatewayNotifier gateway;
  private final PermissionSets permissionSets;

  /**
   * @param store the store
   * @param directory the filter's user cache
   * @param hasher password hashing
   * @param gateway gateway invalidation
   * @param permissionSets the tenants' permission sets (which permissions are immutable)
   */
  public UserService(
      AuthStore store,
      UserDirectory directory,
      PasswordHasher hasher,
      GatewayNotifier gateway,
      PermissionSets permissionSets) {
    this.store = store;
    this.directory = directory;
    this.hasher = hasher;
    this.gateway = gateway;
    this.permissionSets = permissionSets;
  }

  /**
   * Creates a user for a caller: {@link #create(UserRecord, String)} once the caller may grant
   * every permission the user is given.
   *
   * @param operator the caller, or empty if auth is not enabled (a direct call)
   * @return as {@link #create(UserRecord, String)}; 403 if the caller may not grant them
   */
  public Future<UserRecord> create(UserRecord user, String password, Optional<Operator> operator) {
    return mayAssign(user.tenant(), operator, List.of(), user.permissions())
        .compose(v -> create(user, password));
  }

  /**
   * Sets a user's permissions for a caller: {@link #setPermissions(String, String, List)} once the
   * caller may grant each permission the user did not have (mod-permissions checks only those).
   *
   * @param operator the caller, or empty if auth is not enabled (a direct call)
   * @return done; 404 unknown user, 403 if the caller may not grant them
   */
  public Future<Void> setPermissions(
      String tenant, String id, List<String> permissions, Optional<Operator> operator) {
    if (operator.isEmpty()) {
      return setPermissions(tenant, id, permissions);
    }
    // read, check, write: a change racing this one between the read and the write can at worst
    // keep a permission the user held at the read (mod-permissions does the three in a transaction)
    return store
        .findUser(tenant, id)
        .compose(
            user ->
                user == null
                    ? Future.failedFuture(ApiException.notFound("user not found: " + id))
                    : mayAssign(tenant, operator, user.permissions(), permissions))
        .compose(v -> setPermissions(tenant, id, permissions));
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

  private Future<Void> mayAssign(
      String tenant, Optional<Operator> operator, List<String> before, List<String> after) {
    if (operator.isEmpty()) {
      return Future.succeededFuture();
    }
    Set<String> added = new LinkedHashSet<>(after);
    before.forEach(added::remove);
    if (added.isEmpty()) {
      return Future.succeededFuture();
    }
    return permissionSets
        .graph(tenant)
        .map(
            graph -> {
              AssignRules.check(operator.get(), graph, added);
              return null;
            });
  }

  private Future<String> hashOrNull(String password) {
    return password == null ? Future.succeededFuture(null) : hasher.hash(password);
  }
}
