package io.okapigw.authtoken.perms;

import io.okapigw.authtoken.store.AuthStore;
import io.vertx.core.Future;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each tenant's {@link PermissionGraph}, loaded from the store on first use and kept until the
 * tenant's sets change ({@link #invalidate(String)}); no timeout. A load in flight when the sets
 * change is dropped from the cache with the rest, so it can't bring back old sets.
 */
public final class PermissionSets {
  private final AuthStore store;
  private final Map<String, Future<PermissionGraph>> graphs = new ConcurrentHashMap<>();

  /**
   * @param store where the sets are
   */
  public PermissionSets(AuthStore store) {
    this.store = store;
  }

  /**
   * @param tenant tenant id @return the tenant's graph
   */
  public Future<PermissionGraph> graph(String tenant) {
    Future<PermissionGraph> cached = graphs.get(tenant);
    if (cached != null && !cached.failed()) {
      return cached;
    }
    Future<PermissionGraph> loading = store.permissionSets(tenant).map(PermissionGraph::of);
    graphs.put(tenant, loading);
    loading.onFailure(e -> graphs.remove(tenant, loading));
    return loading;
  }

  /**
   * @param tenant tenant whose sets changed
   */
  public void invalidate(String tenant) {
    graphs.remove(tenant);
  }

  /** Drops every tenant's graph. */
  public void invalidateAll() {
    graphs.clear();
  }
}
