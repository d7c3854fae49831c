package io.okapigw.folio.module;

import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;

/**
 * What an endpoint answers: a status, an optional JSON body and headers.
 *
 * @param status HTTP status
 * @param body JSON body, or null for none
 * @param location the {@code Location} header, or null for none
 * @param headers more headers (a header may repeat, as {@code Set-Cookie}); empty for none
 */
public record Reply(int status, JsonObject body, String location, MultiMap headers) {

  /** A reply with no other headers. */
  public Reply(int status, JsonObject body, String location) {
    this(status, body, location, MultiMap.caseInsensitiveMultiMap());
  }

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

  /**
   * @return this reply with one more header value ({@code name} may repeat)
   */
  public Reply withHeader(String name, String value) {
    MultiMap more = MultiMap.caseInsensitiveMultiMap().addAll(headers).add(name, value);
    return new Reply(status, body, location, more);
  }
}
