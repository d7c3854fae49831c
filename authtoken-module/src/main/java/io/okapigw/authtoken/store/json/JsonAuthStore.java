package io.okapigw.authtoken.store.json;

import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.PermissionSetRecord;
import io.okapigw.authtoken.store.RefreshTokenRecord;
import io.okapigw.authtoken.store.RevokedSession;
import io.okapigw.authtoken.store.StoreChange;
import io.okapigw.authtoken.store.UserRecord;
import io.okapigw.authtoken.store.UserUpdate;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The embedded store: all data in memory, persisted to one JSON file in a directory owned by one
 * process.
 *
 * <p>Every operation runs, in order, on one worker thread of its own. A write changes the data in
 * memory, then waits for a flush that writes the whole file atomically ({@link StoreFile}); its
 * future succeeds only after that, so nothing acknowledged is lost by a kill -9. Flushes are group
 * commits: one file write covers every change made before it, so a storm of writes costs a few file
 * writes, not one each.
 */
public final class JsonAuthStore implements AuthStore {
  private static final AtomicInteger INSTANCES = new AtomicInteger();

  private final WorkerExecutor thread;
  private final StoreFile file;
  private final Map<String, TenantData> tenants;
  private long version;
  private long durableVersion;

  private JsonAuthStore(WorkerExecutor thread, StoreFile file, Map<String, TenantData> tenants) {
    this.thread = thread;
    this.file = file;
    this.tenants = tenants;
  }

  /**
   * Opens (creating if needed) the store in a directory.
   *
   * @param vertx Vert.x
   * @param dir directory; locked until {@link #close()}
   * @return the store; fails if the directory is in use or its file is not a valid store
   */
  public static Future<AuthStore> open(Vertx vertx, Path dir) {
    WorkerExecutor thread =
        vertx.createSharedWorkerExecutor("authtoken-json-store-" + INSTANCES.incrementAndGet(), 1);
    return thread
        .<AuthStore>executeBlocking(() -> load(thread, dir), false)
        .onFailure(e -> thread.close());
  }

  private static JsonAuthStore load(WorkerExecutor thread, Path dir) throws Exception {
    StoreFile file = StoreFile.open(dir);
    try {
      Buffer content = file.read();
      return new JsonAuthStore(
          thread, file, content == null ? new TreeMap<>() : JsonStoreCodec.decode(content));
    } catch (RuntimeException e) {
      file.close();
      throw new IllegalStateException(
          "--store: cannot read " + dir.resolve(StoreFile.DATA) + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Future<Void> insertUser(UserRecord user) {
    return write(() -> tenant(user.tenant()).insertUser(user));
  }

  @Override
  public Future<UserRecord> updateUser(String tenant, String id, UserUpdate update) {
    return writeValue(() -> tenant(tenant).updateUser(id, update));
  }

  @Override
  public Future<UserRecord> findUser(String tenant, String id) {
    return read(tenant, t -> t.users.get(id));
  }

  @Override
  public Future<UserRecord> findUserByUsername(String tenant, String username) {
    return read(tenant, t -> t.findUserByUsername(username));
  }

  @Override
  public Future<Void> setPermissions(String tenant, String id, List<String> permissions) {
    return write(() -> tenant(tenant).setPermissions(id, permissions));
  }

  @Override
  public Future<Void> replacePermissionSets(
      String tenant, String moduleId, List<PermissionSetRecord> sets) {
    return write(() -> tenant(tenant).replacePermissionSets(moduleId, sets));
  }

  @Override
  public Future<List<PermissionSetRecord>> permissionSets(String tenant) {
    return read(tenant, TenantData::permissionSets).map(l -> l == null ? List.of() : l);
  }

  @Override
  public Future<Void> insertRefreshToken(RefreshTokenRecord token) {
    return write(() -> tenant(token.tenant()).refreshTokens.put(token.tokenHash(), token));
  }

  @Override
  public Future<RefreshTokenRecord> findRefreshToken(String tenant, String tokenHash) {
    return read(tenant, t -> t.refreshTokens.get(tokenHash));
  }

  /** Atomic as every operation here: one thread runs them, one at a time. */
  @Override
  public Future<Rotation> rotateRefreshToken(
      String tenant, String usedHash, RefreshTokenRecord successor) {
    return writeValue(() -> tenant(tenant).rotateRefreshToken(usedHash, successor));
  }

  @Override
  public Future<Void> deleteRefreshTokens(String tenant, String userId) {
    return write(() -> tenant(tenant).deleteRefreshTokens(userId));
  }

  @Override
  public Future<List<String>> sessionsOf(String tenant, String userId) {
    return read(tenant, t -> t.sessionsOf(userId)).map(l -> l == null ? List.of() : l);
  }

  @Override
  public Future<Void> revokeSession(RevokedSession session) {
    return write(
        () -> tenant(session.tenant()).revokeSession(session.sessionId(), session.until()));
  }

  @Override
  public Future<List<RevokedSession>> revokeSessionsOf(
      String tenant, String userId, String alsoSession, Instant until) {
    return writeValue(() -> tenant(tenant).revokeSessionsOf(userId, alsoSession, until));
  }

  @Override
  public Future<List<RevokedSession>> revokedSessions(Instant now) {
    return thread.executeBlocking(
        () -> {
          List<RevokedSession> all = new ArrayList<>();
          tenants.values().forEach(t -> t.revokedSessions(now, all));
          return all;
        },
        false);
  }

  @Override
  public Future<Void> purgeExpired(Instant now) {
    return write(() -> tenants.values().forEach(t -> t.purgeExpired(now)));
  }

  @Override
  public void changeHandler(Handler<StoreChange> handler) {
    // One process owns the directory: every change is made through this instance.
  }

  @Override
  public Future<Void> close() {
    return thread
        .<Void>executeBlocking(
            () -> {
              file.close();
              return null;
            },
            false)
        .eventually(thread::close);
  }

  private TenantData tenant(String tenant) {
    return tenants.computeIfAbsent(tenant, TenantData::new);
  }

  private <T> Future<T> read(String tenant, Function<TenantData, T> query) {
    return thread.executeBlocking(
        () -> {
          TenantData data = tenants.get(tenant);
          return data == null ? null : query.apply(data);
        },
        false);
  }

  private Future<Void> write(Runnable mutation) {
    return writeValue(
        () -> {
          mutation.run();
          return null;
        });
  }

  /** Changes the data, then waits until a flush made the change durable. */
  private <T> Future<T> writeValue(Callable<T> mutation) {
    return thread
        .executeBlocking(
            () -> {
              T value = mutation.call();
              return new Written<>(value, ++version);
            },
            false)
        .compose(
            w -> thread.executeBlocking(() -> flushUpTo(w.version()), false).map(v -> w.value()));
  }

  /** Writes the file unless a flush since {@code wanted} already did; covers all changes so far. */
  private Void flushUpTo(long wanted) throws Exception {
    if (durableVersion >= wanted) {
      return null;
    }
    long covered = version;
    file.write(JsonStoreCodec.encode(tenants));
    durableVersion = covered;
    return null;
  }

  private record Written<T>(T value, long version) {}
}
