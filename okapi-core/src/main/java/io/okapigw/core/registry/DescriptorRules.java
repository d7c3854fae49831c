package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Okapi 6.1.5's rules for a newly posted module descriptor (its {@code ModuleDescriptor}, {@code
 * InterfaceDescriptor} and {@code RoutingEntry} setters and {@code validate}), checked on the JSON
 * once {@link ModuleDescriptor#fromJson} has read its structure. Each failure is a 400 naming the
 * module, where in the descriptor, and what is wrong.
 */
final class DescriptorRules {

  /** Interface types a posted descriptor may use ({@code internal} is the okapi module's). */
  static final Set<String> INTERFACE_TYPES = Set.of("proxy", "system", "multiple");

  /** Handler and filter types Okapi knows. */
  static final Set<String> ENTRY_TYPES =
      Set.of(
          "request-response",
          "request-only",
          "headers",
          "redirect",
          "system",
          "internal",
          "request-response-1.0",
          "request-log");

  private static final Set<String> METHODS =
      HttpMethod.values().stream().map(HttpMethod::name).collect(Collectors.toUnmodifiableSet());

  private DescriptorRules() {}

  static void check(JsonObject json, String id) {
    String module = "module " + id;
    checkId(id);
    Set<String> provided = new HashSet<>();
    List<JsonObject> provides = JsonFields.objects(json, "provides", module);
    for (int i = 0; i < provides.size(); i++) {
      JsonObject itf = provides.get(i);
      String where = module + ": provides[" + i + "] (" + itf.getString("id") + ")";
      if (!provided.add(itf.getString("id"))) {
        throw bad(where, "interface " + itf.getString("id") + " is provided more than once");
      }
      checkInterface(itf, where);
      checkHandlers(itf, where);
    }
    for (String section : List.of("requires", "optional")) {
      List<JsonObject> refs = JsonFields.objects(json, section, module);
      for (int i = 0; i < refs.size(); i++) {
        String where =
            module + ": " + section + "[" + i + "] (" + refs.get(i).getString("id") + ")";
        checkInterface(refs.get(i), where);
        if (!JsonFields.objects(refs.get(i), "handlers", where).isEmpty()) {
          throw bad(where, "no handlers allowed in '" + section + "'");
        }
      }
    }
    List<JsonObject> filters = JsonFields.objects(json, "filters", module);
    for (int i = 0; i < filters.size(); i++) {
      checkEntry(filters.get(i), module + ": filters[" + i + "]");
    }
    checkPermissionSets(json, module);
    checkReplaces(json, module);
  }

  private static void checkId(String id) {
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

  private static void checkInterface(JsonObject itf, String where) {
    String version = itf.getString("version");
    if (InterfaceVersion.parseAll(version).isEmpty()) {
      throw bad(
          where,
          "bad version '"
              + version
              + "' (major.minor or major.minor.patch;"
              + " several separated by spaces where required)");
    }
    String type = itf.getString("interfaceType");
    if (type != null && !INTERFACE_TYPES.contains(type)) {
      throw bad(where, "bad interfaceType '" + type + "' (proxy, system or multiple)");
    }
  }

  private static void checkHandlers(JsonObject itf, String where) {
    boolean system =
        itf.getString("id").startsWith("_") || "system".equals(itf.getString("interfaceType"));
    List<JsonObject> handlers = JsonFields.objects(itf, "handlers", where);
    for (int i = 0; i < handlers.size(); i++) {
      String at = where + ".handlers[" + i + "]";
      checkEntry(handlers.get(i), at);
      if (!system && handlers.get(i).getValue("permissionsRequired") == null) {
        throw bad(
            at + " " + handlers.get(i).getString("pathPattern", handlers.get(i).getString("path")),
            "missing permissionsRequired ([] for none)");
      }
    }
  }

  private static void checkEntry(JsonObject entry, String where) {
    String type = entry.getString("type");
    if (type != null && !ENTRY_TYPES.contains(type)) {
      throw bad(
          where,
          "invalid type '"
              + type
              + "' ("
              + String.join(", ", ENTRY_TYPES.stream().sorted().toList())
              + ")");
    }
    for (String method : JsonFields.strings(entry, "methods", where)) {
      if (!"*".equals(method) && !METHODS.contains(method)) {
        throw bad(where, "invalid method '" + method + "' (upper case, e.g. GET, or *)");
      }
    }
  }

  private static void checkPermissionSets(JsonObject json, String module) {
    List<JsonObject> sets = JsonFields.objects(json, "permissionSets", module);
    for (int i = 0; i < sets.size(); i++) {
      JsonFields.requiredString(
          sets.get(i), "permissionName", module + ": permissionSets[" + i + "]");
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

  private static HttpError bad(String where, String problem) {
    return HttpError.badRequest(where + ": " + problem);
  }
}
