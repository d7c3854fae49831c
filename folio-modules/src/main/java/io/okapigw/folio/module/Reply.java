package io.okapigw.folio.module;

import io.vertx.core.json.JsonObject;

/**
 * What an endpoint answers: a status and an optional JSON body.
 *
 * @param status HTTP status
 * @param body JSON body, or null for none
 * @param location the {@code Location} header, or null for none
 */
public record Reply(int status, JsonObject body, String location) {

  /** A reply without {@code Location}. */
  public Reply(int status, JsonObject body) {
    this(status, body, null);
  }

  /**
   * @return 200 with {@code body}
   */
  public static Reply ok(JsonObject body) {
    return new Reply(200, body);
  }

  /**
   * @return 201 with {@code body}
   */
  public static Reply created(JsonObject body) {
    return new Reply(201, body);
  }

  /**
   * @return 204 without a body
   */
  public static Reply noContent() {
    return new Reply(204, null);
  }
}
