package io.okapigw.folio.module;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One handler of a module descriptor for one method, with its path pattern compiled the Okapi way:
 * {@code {name}} matches one path segment, {@code *} anything.
 *
 * @param moduleId id of the module whose descriptor declares it
 * @param interfaceId the provided interface it belongs to
 * @param method one HTTP method
 * @param pathPattern the pattern as written in the descriptor
 * @param permissionsRequired permissions the caller must have
 * @param modulePermissions permissions the handler's outgoing calls get
 */
public record HandlerSpec(
    String moduleId,
    String interfaceId,
    String method,
    String pathPattern,
    List<String> permissionsRequired,
    List<String> modulePermissions) {

  private static final Map<String, Pattern> COMPILED = new ConcurrentHashMap<>();

  /**
   * @param descriptor a module descriptor
   * @return one spec per handler and method, in descriptor order
   */
  public static List<HandlerSpec> of(JsonObject descriptor) {
    List<HandlerSpec> specs = new ArrayList<>();
    String moduleId = descriptor.getString("id");
    for (Object provided : descriptor.getJsonArray("provides", new JsonArray())) {
      JsonObject iface = (JsonObject) provided;
      for (Object h : iface.getJsonArray("handlers", new JsonArray())) {
        JsonObject handler = (JsonObject) h;
        for (Object method : handler.getJsonArray("methods")) {
          specs.add(
              new HandlerSpec(
                  moduleId,
                  iface.getString("id"),
                  (String) method,
                  handler.getString("pathPattern"),
                  strings(handler, "permissionsRequired"),
                  strings(handler, "modulePermissions")));
        }
      }
    }
    return specs;
  }

  /**
   * @return the key this handler is counted under: {@code "GET /users/{id}"}
   */
  public String key() {
    return Routes.key(method, pathPattern);
  }

  /**
   * @param requestMethod method of a request
   * @param path its path, without the query string
   * @return the path parameters by name if this handler serves the request
   */
  public Optional<Map<String, String>> match(String requestMethod, String path) {
    if (!method.equals(requestMethod)) {
      return Optional.empty();
    }
    Matcher m = COMPILED.computeIfAbsent(pathPattern, HandlerSpec::compile).matcher(path);
    if (!m.matches()) {
      return Optional.empty();
    }
    List<String> names = paramNames(pathPattern);
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      params.put(names.get(i), URLDecoder.decode(m.group(i + 1), StandardCharsets.UTF_8));
    }
    return Optional.of(params);
  }

  private static Pattern compile(String pattern) {
    StringBuilder regex = new StringBuilder();
    Matcher m = Pattern.compile("\\{[^}/]+}|\\*").matcher(pattern);
    int last = 0;
    while (m.find()) {
      regex
          .append(Pattern.quote(pattern.substring(last, m.start())))
          .append(m.group().equals("*") ? ".*" : "([^/]+)");
      last = m.end();
    }
    return Pattern.compile(regex.append(Pattern.quote(pattern.substring(last))).toString());
  }

  private static List<String> paramNames(String pattern) {
    List<String> names = new ArrayList<>();
    Matcher m = Pattern.compile("\\{([^}/]+)}").matcher(pattern);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  private static List<String> strings(JsonObject handler, String field) {
    JsonArray array = handler.getJsonArray(field, new JsonArray());
    return array.stream().map(String.class::cast).toList();
  }
}
