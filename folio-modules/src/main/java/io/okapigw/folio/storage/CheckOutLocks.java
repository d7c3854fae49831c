package io.okapigw.folio.storage;

import io.okapigw.folio.module.ModuleError;
import io.okapigw.folio.module.ModuleRequest;
import io.okapigw.folio.module.Reply;
import io.okapigw.folio.module.Routes;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code checkout-lock-storage}: at most one live check-out lock per patron. A second lock for the
 * same patron while the first lives (until deleted or its {@code ttlMs} passed) fails with 503, as
 * a busy resource.
 */
final class CheckOutLocks {

  static final long DEFAULT_TTL_MS = 3000;

  private record Lock(String id, String userId, Instant expires) {}

  private final Map<String, Lock> byUser = new ConcurrentHashMap<>();
  private final Clock clock;

  CheckOutLocks(Clock clock) {
    this.clock = clock;
  }

  void mount(Routes routes) {
    routes
        .on("POST", "/check-out-lock-storage", this::lock)
        .on("DELETE", "/check-out-lock-storage/{id}", this::unlock);
  }

  private Future<Reply> lock(ModuleRequest request) {
    JsonObject body = request.json();
    String userId = body.getString("userId");
    if (userId == null) {
      throw ModuleError.unprocessable("must not be null", "userId", null);
    }
    long ttl = body.getLong("ttlMs", DEFAULT_TTL_MS);
    Instant now = clock.instant();
    Lock fresh = new Lock(UUID.randomUUID().toString(), userId, now.plusMillis(ttl));
    Lock held =
        byUser.compute(
            userId, (user, old) -> old == null || old.expires().isBefore(now) ? fresh : old);
    if (held != fresh) {
      throw ModuleError.of(
          503, "unable to acquire lock: patron " + userId + " has a live check-out lock");
    }
    return Future.succeededFuture(
        Reply.created(
            new JsonObject()
                .put("id", fresh.id())
                .put("userId", userId)
                .put("creationDate", now.toString())));
  }

  private Future<Reply> unlock(ModuleRequest request) {
    String id = request.pathParam("id");
    boolean removed = byUser.values().removeIf(lock -> lock.id().equals(id));
    if (!removed) {
      throw ModuleError.notFound("check-out lock not found: " + id);
    }
    return Future.succeededFuture(Reply.noContent());
  }
}
