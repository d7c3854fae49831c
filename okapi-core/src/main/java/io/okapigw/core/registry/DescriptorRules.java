package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Okapi 6.1.5's rules for a posted module descriptor: what its Jackson decoding into its beans
 * refuses ({@link OkapiForm#unreadable}, the setters of {@code ModuleDescriptor} and {@code
 * InterfaceDescriptor}, {@link EntryRules} for routing entries) and what its {@code validate}
 * refuses. Okapi checks {@code provides} and {@code requires} there, not {@code optional}; an
 * interface's {@code version} only as far as its first version. Each failure is a 400 naming the
 * module, where in the descriptor, and what is wrong.
 */
final class DescriptorRules {

  /**
   * Interface types a posted descriptor may use: Okapi 6.1.5 refuses a posted {@code internal}
   * ("Bad interface type 'internal'", OkapiDifferentialTest), which only the okapi module's own
   * descriptor carries (left out of a pull before any check).
   */
  static final Set<String> INTERFACE_TYPES = Set.of("proxy", "system", "multiple");

  private DescriptorRules() {}

  /**
   * @param json the descriptor in {@link OkapiForm}'s form
   * @param posted the descriptor as posted
   */
  static void check(JsonObject json, JsonObject posted) {
    String id = JsonFields.requiredString(json, "id", "module descriptor");
    checkId(id);
    String module = "module " + id;
    OkapiForm.unreadable(posted)
        .ifPresent(
            problem -> {
              throw HttpError.badRequest(module + ": " + problem);
            });
    checkProvides(json, module);
    List<JsonObject> requires = JsonFields.objects(json, "requires", module);
    for (int i = 0; i < requires.size(); i++) {
      String where = module + ": requires[" + i + "] (" + requires.get(i).getString("id") + ")";
      present(requires.get(i), "id", where);
      checkInterface(requires.get(i), where);
      if (!JsonFields.objects(requires.get(i), "handlers", where).isEmpty()) {
        throw bad(where, "no handlers allowed in 'requires'");
      }
    }
    List<JsonObject> optional = JsonFields.objects(json, "optional", module);
    for (int i = 0; i < optional.size(); i++) {
      String where = module + ": optional[" + i + "] (" + optional.get(i).getString("id") + ")";
      checkVersion(optional.get(i), where);
      List<JsonObject> handlers = JsonFields.objects(optional.get(i), "handlers", where);
      for (int h = 0; h < handlers.size(); h++) {
        EntryRules.checkValues(handlers.get(h), where + ".handlers[" + h + "]");
      }
    }
    List<JsonObject> filters = JsonFields.objects(json, "filters", module);
    for (int i = 0; i < filters.size(); i++) {
      EntryRules.checkValues(filters.get(i), module + ": filters[" + i + "]");
      EntryRules.checkRouted(filters.get(i), module + ": filters[" + i + "]");
    }
    checkPermissionSets(json, module);
    checkReplaces(json, module);
  }

  /**
   * Okapi's id: a product, then a semantic version; no rule on characters (this gateway refuses
   * control characters, {@code /} and {@code ..}: {@link AdminIds}).
   */
  private static void checkId(String id) {
    AdminIds.check("module descriptor: id", id);
    ModuleId parsed;
    try {
      parsed = ModuleId.parse(id);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest(
          "module descriptor: invalid id '"
              + id
              + "': what follows the"
              + " product name is not a semantic version ("
              + e.getMessage()
              + ")");
    }
    if (!parsed.hasVersion()) {
      throw HttpError.badRequest(
          "module descriptor: id '"
              + id
              + "' has no semantic version;"
              + " a module id is the product, '-' and a version, e.g. mod-users-19.2.0");
    }
  }

  private static void checkProvides(JsonObject json, String module) {
    Set<String> provided = new HashSet<>();
    List<JsonObject> provides = JsonFields.objects(json, "provides", module);
    for (int i = 0; i < provides.size(); i++) {
      JsonObject itf = provides.get(i);
      String where = module + ": provides[" + i + "] (" + itf.getString("id") + ")";
      present(itf, "id", module + ": provides[" + i + "]");
      if (!provided.add(itf.getString("id"))) {
        throw bad(where, "interface " + itf.getString("id") + " is provided more than once");
      }
      checkInterface(itf, where);
      checkHandlers(itf, where);
    }
  }

  /** Okapi's {@code InterfaceDescriptor.validate} for provides and requires. */
  private static void checkInterface(JsonObject itf, String where) {
    present(itf, "version", where);
    checkVersion(itf, where);
    String type = itf.getString("interfaceType");
    if (type != null && !INTERFACE_TYPES.contains(type)) {
      throw bad(where, "bad interfaceType '" + type + "' (proxy, system or multiple)");
    }
  }

  /** Okapi's {@code setVersion}: the first of the versions must be one. */
  private static void checkVersion(JsonObject itf, String where) {
    String version = itf.getString("version");
    if (version != null && InterfaceVersion.parseAll(version).isEmpty()) {
      throw bad(
          where,
          "bad version '"
              + version
              + "' (major.minor or major.minor.patch;"
              + " several separated by spaces where required)");
    }
  }

  private static void checkHandlers(JsonObject itf, String where) {
    boolean system =
        itf.getString("id").startsWith("_") || "system".equals(itf.getString("interfaceType"));
    List<JsonObject> handlers = JsonFields.objects(itf, "handlers", where);
    for (int i = 0; i < handlers.size(); i++) {
      String at = where + ".handlers[" + i + "]";
      EntryRules.checkValues(handlers.get(i), at);
      EntryRules.checkRouted(handlers.get(i), at);
      if (!system && handlers.get(i).getValue("permissionsRequired") == null) {
        throw bad(
            at + " " + handlers.get(i).getString("pathPattern", handlers.get(i).getString("path")),
            "missing permissionsRequired ([] for none)");
      }
    }
  }

  private static void checkPermissionSets(JsonObject json, String module) {
    List<JsonObject> sets = JsonFields.objects(json, "permissionSets", module);
    for (int i = 0; i < sets.size(); i++) {
      present(sets.get(i), "permissionName", module + ": permissionSets[" + i + "]");
    }
  }

  private static void checkReplaces(JsonObject json, String module) {
    for (String replaced : JsonFields.strings(json, "replaces", module)) {
      boolean versioned;
      try {
        versioned = ModuleId.parse(replaced).hasVersion();
      } catch (IllegalArgumentException e) {
        versioned = true;
      }
      if (versioned) {
        throw bad(
            module + ": replaces",
            "'" + replaced + "' must be a product name without" + " a version");
      }
    }
  }

  /** Okapi's test for a required property: there (an empty string will do). */
  private static void present(JsonObject json, String field, String where) {
    if (json.getValue(field) == null) {
      throw bad(where, "missing " + field);
    }
  }

  private static HttpError bad(String where, String problem) {
    return HttpError.badRequest(where + ": " + problem);
  }
}
