package io.okapigw.authtoken.users;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.perms.PermissionGraph;
import io.okapigw.authtoken.perms.PermissionSets;
import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.UserRecord;
import io.vertx.core.Future;
import java.util.Set;

/**
 * The filter's view of users: each user (without password hash) cached after first use, with the
 * expansion of their permissions through the tenant's current permission sets. No timeout: every
 * change to a user goes through {@link #invalidate(String, String)} (locally, or announced by
 * another instance), so a change is effective at once. A load in flight when the user changes is
 * dropped with the entry, so it can't bring back old data.
 */
public final class UserDirectory {
  /** Most users kept; the least recently used beyond that are reloaded when needed. */
  public static final long MAX_USERS = 100_000;

  private final AuthStore store;
  private final PermissionSets permissionSets;
  private final Cache<String, Future<CachedUser>> users =
      Caffeine.newBuilder().maximumSize(MAX_USERS).executor(Runnable::run).build();

  /**
   * @param store where users are @param permissionSets the tenants' permission sets
   */
  public UserDirectory(AuthStore store, PermissionSets permissionSets) {
    this.store = store;
    this.permissionSets = permissionSets;
  }

  /**
   * @param tenant tenant id
   * @param userId user id
   * @return the active user with expanded permissions; 401 if unknown or inactive
   */
  public Future<ActiveUser> activeUser(String tenant, String userId) {
    return permissionSets
        .graph(tenant)
        .compose(graph -> cached(tenant, userId).map(user -> user.resolve(graph, userId)));
  }

  /**
   * @param tenant tenant id @param userId user whose account or permissions changed
   */
  public void invalidate(String tenant, String userId) {
    users.invalidate(key(tenant, userId));
  }

  /** Drops every cached user. */
  public void invalidateAll() {
    users.invalidateAll();
  }

  private Future<CachedUser> cached(String tenant, String userId) {
    String key = key(tenant, userId);
    Future<CachedUser> cached = users.getIfPresent(key);
    if (cached != null && !cached.failed()) {
      return cached;
    }
    Future<CachedUser> loading =
        store
            .findUser(tenant, userId)
            .map(u -> new CachedUser(u == null ? null : u.withoutPasswordHash()));
    users.put(key, loading);
    loading.onFailure(e -> users.asMap().remove(key, loading));
    return loading;
  }

  private static String key(String tenant, String userId) {
    return tenant + '\n' + userId;
  }

  /**
   * An active user and what they hold.
   *
   * @param user the user (without password hash)
   * @param graph the tenant's permission sets
   * @param permissions the user's permissions, expanded through {@code graph}
   */
  public record ActiveUser(UserRecord user, PermissionGraph graph, Set<String> permissions) {}

  /** A user (or the fact there is none) with the last expansion of their permissions. */
  private static final class CachedUser {
    private final UserRecord user;
    private volatile ActiveUser resolved;

    CachedUser(UserRecord user) {
      this.user = user;
    }

    ActiveUser resolve(PermissionGraph graph, String userId) {
      if (user == null) {
        throw ApiException.unauthorized("user of the token does not exist: " + userId);
      }
      if (!user.active()) {
        throw ApiException.unauthorized("user is not active: " + userId);
      }
      ActiveUser last = resolved;
      if (last == null || last.graph() != graph) {
        last = new ActiveUser(user, graph, graph.expand(user.permissions()));
        resolved = last;
      }
      return last;
    }
  }
}
