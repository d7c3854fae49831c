package io.okapigw.authtoken.store.json;

import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.PermissionSetRecord;
import io.okapigw.authtoken.store.RefreshTokenRecord;
import io.okapigw.authtoken.store.RevokedSession;
import io.okapigw.authtoken.store.UserRecord;
import io.okapigw.authtoken.store.UserUpdate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One tenant's data in memory. Not thread-safe: only the JSON store's single thread touches it.
 * Every operation checks before it changes anything, so a failed one changes nothing.
 */
final class TenantData {
  final String tenant;
  final Map<String, UserRecord> users = new LinkedHashMap<>();
  final Map<String, List<PermissionSetRecord>> setsByModule = new LinkedHashMap<>();
  final Map<String, RefreshTokenRecord> refreshTokens = new LinkedHashMap<>();
  final Map<String, Instant> revokedSessions = new LinkedHashMap<>();
  private final Map<String, String> idByUsername = new HashMap<>();

  TenantData(String tenant) {
    this.tenant = tenant;
  }

  void insertUser(UserRecord user) {
    if (users.containsKey(user.id())) {
      throw ApiException.unprocessable("user id already exists: " + user.id());
    }
    if (idByUsername.containsKey(user.username())) {
      throw ApiException.unprocessable("username already exists: " + user.username());
    }
    putUser(user);
  }

  /** Adds a user as loaded from the file. */
  void putUser(UserRecord user) {
    users.put(user.id(), user);
    idByUsername.put(user.username(), user.id());
  }

  UserRecord updateUser(String id, UserUpdate update) {
    UserRecord old = existing(id);
    String username = update.username() == null ? old.username() : update.username();
    String owner = idByUsername.get(username);
    if (owner != null && !owner.equals(id)) {
      throw ApiException.unprocessable("username already exists: " + username);
    }
    UserRecord updated =
        new UserRecord(
            tenant,
            id,
            username,
            update.active() == null ? old.active() : update.active(),
            update.passwordHash() == null ? old.passwordHash() : update.passwordHash(),
            old.permissions());
    idByUsername.remove(old.username());
    putUser(updated);
    return updated;
  }

  UserRecord findUserByUsername(String username) {
    String id = idByUsername.get(username);
    return id == null ? null : users.get(id);
  }

  void setPermissions(String id, List<String> permissions) {
    users.put(id, existing(id).withPermissions(permissions));
  }

  void replacePermissionSets(String moduleId, List<PermissionSetRecord> sets) {
    if (sets.isEmpty()) {
      setsByModule.remove(moduleId);
    } else {
      setsByModule.put(moduleId, List.copyOf(sets));
    }
  }

  List<PermissionSetRecord> permissionSets() {
    List<PermissionSetRecord> all = new ArrayList<>();
    setsByModule.values().forEach(all::addAll);
    return all;
  }

  AuthStore.Rotation rotateRefreshToken(String usedHash, RefreshTokenRecord successor) {
    RefreshTokenRecord token = refreshTokens.get(usedHash);
    if (token == null || !token.sessionId().equals(successor.sessionId())) {
      return AuthStore.Rotation.GONE;
    }
    if (token.used()) {
      return AuthStore.Rotation.REUSED;
    }
    refreshTokens.put(usedHash, token.asUsed());
    refreshTokens.put(successor.tokenHash(), successor);
    return AuthStore.Rotation.ROTATED;
  }

  void deleteRefreshTokens(String userId) {
    refreshTokens.values().removeIf(t -> t.userId().equals(userId));
  }

  List<String> sessionsOf(String userId) {
    return refreshTokens.values().stream()
        .filter(t -> t.userId().equals(userId))
        .map(RefreshTokenRecord::sessionId)
        .distinct()
        .toList();
  }

  void revokeSession(String sessionId, Instant until) {
    refreshTokens.values().removeIf(t -> t.sessionId().equals(sessionId));
    revokedSessions.merge(sessionId, until, (a, b) -> a.isAfter(b) ? a : b);
  }

  List<RevokedSession> revokeSessionsOf(String userId, String alsoSession, Instant until) {
    Set<String> sessions = new LinkedHashSet<>(sessionsOf(userId));
    if (alsoSession != null) {
      sessions.add(alsoSession);
    }
    sessions.forEach(sid -> revokeSession(sid, until));
    return sessions.stream().map(sid -> new RevokedSession(tenant, sid, until)).toList();
  }

  void revokedSessions(Instant now, List<RevokedSession> into) {
    revokedSessions.forEach(
        (sid, until) -> {
          if (until.isAfter(now)) {
            into.add(new RevokedSession(tenant, sid, until));
          }
        });
  }

  void purgeExpired(Instant now) {
    refreshTokens.values().removeIf(t -> !t.expiresAt().isAfter(now));
    revokedSessions.values().removeIf(until -> !until.isAfter(now));
  }

  private UserRecord existing(String id) {
    UserRecord user = users.get(id);
    if (user == null) {
      throw ApiException.notFound("user not found: " + id);
    }
    return user;
  }
}
