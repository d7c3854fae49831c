package io.okapigw.authtoken.store.json;

import io.okapigw.authtoken.store.PermissionSetRecord;
import io.okapigw.authtoken.store.RefreshTokenRecord;
import io.okapigw.authtoken.store.UserRecord;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The JSON store's file format (version 1): all tenants in one JSON object. */
final class JsonStoreCodec {
  static final String FORMAT = "authtoken-json-store";
  static final int VERSION = 1;

  private JsonStoreCodec() {}

  static Buffer encode(Map<String, TenantData> tenants) {
    JsonObject all = new JsonObject();
    tenants.forEach((name, data) -> all.put(name, encodeTenant(data)));
    return new JsonObject()
        .put("format", FORMAT)
        .put("version", VERSION)
        .put("tenants", all)
        .toBuffer();
  }

  static Map<String, TenantData> decode(Buffer buffer) {
    JsonObject root = buffer.toJsonObject();
    if (!FORMAT.equals(root.getString("format")) || root.getInteger("version", 0) != VERSION) {
      throw new IllegalStateException("not a version " + VERSION + " " + FORMAT + " file");
    }
    Map<String, TenantData> tenants = new TreeMap<>();
    root.getJsonObject("tenants")
        .forEach(e -> tenants.put(e.getKey(), decodeTenant(e.getKey(), (JsonObject) e.getValue())));
    return tenants;
  }

  private static JsonObject encodeTenant(TenantData data) {
    JsonArray users = new JsonArray();
    data.users
        .values()
        .forEach(
            u ->
                users.add(
                    new JsonObject()
                        .put("id", u.id())
                        .put("username", u.username())
                        .put("active", u.active())
                        .put("passwordHash", u.passwordHash())
                        .put("permissions", new JsonArray(u.permissions()))));
    JsonArray sets = new JsonArray();
    data.permissionSets()
        .forEach(
            s ->
                sets.add(
                    new JsonObject()
                        .put("moduleId", s.moduleId())
                        .put("permissionName", s.permissionName())
                        .put("subPermissions", new JsonArray(s.subPermissions()))));
    JsonArray tokens = new JsonArray();
    data.refreshTokens
        .values()
        .forEach(
            t ->
                tokens.add(
                    new JsonObject()
                        .put("tokenHash", t.tokenHash())
                        .put("userId", t.userId())
                        .put("sessionId", t.sessionId())
                        .put("expiresAt", t.expiresAt().toEpochMilli())
                        .put("used", t.used())));
    JsonObject revoked = new JsonObject();
    data.revokedSessions.forEach((sid, until) -> revoked.put(sid, until.toEpochMilli()));
    return new JsonObject()
        .put("users", users)
        .put("permissionSets", sets)
        .put("refreshTokens", tokens)
        .put("revokedSessions", revoked);
  }

  private static TenantData decodeTenant(String tenant, JsonObject json) {
    TenantData data = new TenantData(tenant);
    json.getJsonArray("users").forEach(o -> data.putUser(decodeUser(tenant, (JsonObject) o)));
    json.getJsonArray("permissionSets")
        .forEach(
            o -> {
              JsonObject s = (JsonObject) o;
              data.setsByModule
                  .computeIfAbsent(s.getString("moduleId"), k -> new ArrayList<>())
                  .add(
                      new PermissionSetRecord(
                          s.getString("moduleId"),
                          s.getString("permissionName"),
                          strings(s.getJsonArray("subPermissions"))));
            });
    json.getJsonArray("refreshTokens")
        .forEach(
            o -> {
              JsonObject t = (JsonObject) o;
              data.refreshTokens.put(
                  t.getString("tokenHash"),
                  new RefreshTokenRecord(
                      tenant,
                      t.getString("tokenHash"),
                      t.getString("userId"),
                      t.getString("sessionId"),
                      Instant.ofEpochMilli(t.getLong("expiresAt")),
                      t.getBoolean("used")));
            });
    json.getJsonObject("revokedSessions")
        .forEach(
            e ->
                data.revokedSessions.put(
                    e.getKey(), Instant.ofEpochMilli(((Number) e.getValue()).longValue())));
    return data;
  }

  private static UserRecord decodeUser(String tenant, JsonObject u) {
    return new UserRecord(
        tenant,
        u.getString("id"),
        u.getString("username"),
        u.getBoolean("active"),
        u.getString("passwordHash"),
        strings(u.getJsonArray("permissions")));
  }

  private static List<String> strings(JsonArray array) {
    return array.stream().map(String.class::cast).toList();
  }
}
