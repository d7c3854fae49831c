package io.okapigw.perf.registryscale;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Module descriptors the size of mod-circulation's, each with ids and paths of its own: the
 * template's 21 interfaces (74 handlers) and 104 permission sets, every non-system interface id,
 * path and permission name prefixed with {@code scaleN}. What another module would have to provide
 * ({@code requires}, {@code optional}) and the launch descriptor are left out (each module is
 * registered by URL and enabled alone); the 13 timers fire once a day instead of every few minutes,
 * so that timer calls do not load the run.
 */
final class ScaleDescriptors {

  private ScaleDescriptors() {}

  /**
   * @param template mod-circulation's ModuleDescriptor template ({@code ../shared/folio/})
   * @param count how many descriptors
   * @return the descriptors, ids {@code mod-scaleN-1.0.0}
   */
  static List<JsonObject> of(Path template, int count) throws IOException {
    JsonObject base = new JsonObject(Files.readString(template));
    List<JsonObject> all = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      all.add(derived(base, "scale" + i));
    }
    return all;
  }

  static String id(int i) {
    return "mod-scale" + i + "-1.0.0";
  }

  /**
   * @return a GET path of descriptor {@code i} with nothing variable in it (a request the fake
   *     module answers at once)
   */
  static String probePath(int i) {
    return "/scale" + i + "/circulation/loans";
  }

  private static JsonObject derived(JsonObject base, String prefix) {
    JsonObject d = base.copy();
    d.remove("requires");
    d.remove("optional");
    d.remove("launchDescriptor");
    d.put("id", "mod-" + prefix + "-1.0.0");
    d.put("name", prefix + " (mod-circulation's descriptor, own ids and paths)");
    JsonArray provides = new JsonArray();
    for (Object o : d.getJsonArray("provides")) {
      JsonObject in = (JsonObject) o;
      boolean system = in.getString("id").startsWith("_");
      if (!system) {
        in.put("id", prefix + "-" + in.getString("id"));
      }
      JsonArray handlers = new JsonArray();
      for (Object h : in.getJsonArray("handlers", new JsonArray())) {
        JsonObject handler = (JsonObject) h;
        String path = handler.getString("pathPattern");
        if (path != null && !path.startsWith("/_/")) {
          handler.put("pathPattern", "/" + prefix + path);
        }
        prefixAll(handler, "permissionsRequired", prefix);
        prefixAll(handler, "permissionsDesired", prefix);
        prefixAll(handler, "modulePermissions", prefix);
        if (handler.containsKey("unit") || handler.containsKey("schedule")) {
          handler.remove("schedule");
          handler.put("unit", "day").put("delay", "1");
        }
        handlers.add(handler);
      }
      in.put("handlers", handlers);
      provides.add(in);
    }
    d.put("provides", provides);
    for (Object o : d.getJsonArray("permissionSets", new JsonArray())) {
      JsonObject set = (JsonObject) o;
      set.put("permissionName", prefix + "." + set.getString("permissionName"));
      prefixAll(set, "subPermissions", prefix);
      prefixAll(set, "replaces", prefix);
    }
    return d;
  }

  private static void prefixAll(JsonObject json, String key, String prefix) {
    JsonArray names = json.getJsonArray(key);
    if (names == null) {
      return;
    }
    JsonArray renamed = new JsonArray();
    names.forEach(n -> renamed.add(prefix + "." + n));
    json.put(key, renamed);
  }
}
