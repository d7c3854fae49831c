package io.okapigw.testsupport;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** Module descriptors for tests and tools: a module providing one interface (version 1.0). */
public final class Descriptors {

  private Descriptors() {}

  /**
   * @return {@code {"id": id, "provides": [{"id": itf, "version": "1.0", "handlers": [...]}]}}
   */
  public static JsonObject module(String id, String itf, JsonObject... handlers) {
    JsonObject provided =
        new JsonObject()
            .put("id", itf)
            .put("version", "1.0")
            .put("handlers", new JsonArray(new ArrayList<>(List.of(handlers))));
    return new JsonObject().put("id", id).put("provides", new JsonArray().add(provided));
  }

  /**
   * @param method an HTTP method, or {@code *} for any
   * @return {@code {"methods": [method], "pathPattern": pathPattern, "permissionsRequired": [...]}}
   */
  public static JsonObject handler(
      String method, String pathPattern, String... permissionsRequired) {
    return new JsonObject()
        .put("methods", new JsonArray().add(method))
        .put("pathPattern", pathPattern)
        .put("permissionsRequired", new JsonArray(new ArrayList<>(List.of(permissionsRequired))));
  }
}
