package io.okapigw.testsupport;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Module descriptors for tests and tools: a module providing one interface (version 1.0), a system
 * one, a module of filters.
 */
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
   * @return a module providing the system interface {@code itf} 1.0 ({@code _timer}, ...) with
   *     these handlers
   */
  public static JsonObject systemModule(String id, String itf, JsonObject... handlers) {
    JsonObject module = module(id, itf, handlers);
    module.getJsonArray("provides").getJsonObject(0).put("interfaceType", "system");
    return module;
  }

  /**
   * @return {@code {"id": id, "filters": [...]}}
   */
  public static JsonObject filters(String id, JsonObject... filters) {
    return new JsonObject()
        .put("id", id)
        .put("filters", new JsonArray(new ArrayList<>(List.of(filters))));
  }

  /**
   * @param phase {@code auth}, {@code pre} or {@code post}
   * @return a filter of type {@code headers} for every method
   */
  public static JsonObject filter(String pathPattern, String phase) {
    return new JsonObject()
        .put("methods", new JsonArray().add("*"))
        .put("pathPattern", pathPattern)
        .put("phase", phase)
        .put("type", "headers");
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
