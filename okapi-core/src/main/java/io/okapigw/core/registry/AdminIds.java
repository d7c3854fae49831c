package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.Json;

/**
 * What an id the admin API stores may hold (an instance's {@code instId}, a module id): no control
 * character (C0, DEL, C1, U+2028/9), no {@code /} and no {@code ..}. Such ids end up in paths
 * ({@code /_/discovery/modules/{srvcId}/{instId}}, {@code Location}), headers and log lines, where
 * CR LF splits a header or a line and {@code ../} climbs a path. Okapi 6.1.5 takes any {@code
 * srvcId} and {@code instId}, and any character in a module id; tenant ids it checks as strictly as
 * we do ({@link TenantDescriptor#checkNewId}).
 */
public final class AdminIds {

  private AdminIds() {}

  /**
   * @param what what the id is, for the message ({@code "deployment: instId"})
   * @throws HttpError 400 naming {@code what} and the problem
   */
  public static void check(String what, String id) {
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c < 0x20 || c >= 0x7f && c <= 0x9f || c == '\u2028' || c == '\u2029') {
        throw bad(what, id, String.format("has a control character (U+%04X)", (int) c));
      }
    }
    if (id.indexOf('/') >= 0) {
      throw bad(what, id, "has a /");
    }
    if (id.contains("..")) {
      throw bad(what, id, "has ..");
    }
  }

  /**
   * As {@link #check}, and the id is a module id with a version ({@code mod-users-19.2.0}).
   *
   * @throws HttpError 400 naming {@code what} and the problem
   */
  public static void checkModuleId(String what, String id) {
    check(what, id);
    try {
      if (ModuleId.parse(id).hasVersion()) {
        return;
      }
    } catch (IllegalArgumentException e) {
      throw bad(what, id, "is not a module id: " + e.getMessage());
    }
    throw bad(what, id, "is not a module id (the product, '-' and a version: mod-users-19.2.0)");
  }

  private static HttpError bad(String what, String id, String problem) {
    return HttpError.badRequest(what + " " + Json.encode(id) + " " + problem);
  }
}
