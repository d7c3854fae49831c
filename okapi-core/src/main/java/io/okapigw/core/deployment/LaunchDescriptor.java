package io.okapigw.core.deployment;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a module is started, as Okapi's {@code LaunchDescriptor} says it: a process ({@code exec}, or
 * {@code cmdlineStart} and {@code cmdlineStop} run by {@code sh -c}, {@code %p} standing for the
 * port) or a Docker container ({@code dockerImage}, {@code dockerPull}, {@code dockerCMD}, {@code
 * dockerArgs}), with {@code env} and {@code waitIterations}.
 *
 * @param json the descriptor as given (answered and stored as it is)
 * @param env the environment it names, in order ({@code name} to {@code value}; entries without a
 *     value left out)
 */
public record LaunchDescriptor(JsonObject json, Map<String, String> env) {

  /**
   * @throws HttpError 400 if a member has a type Okapi cannot read
   */
  public static LaunchDescriptor of(JsonObject json) {
    Map<String, String> env = new LinkedHashMap<>();
    Object entries = json.getValue("env");
    if (entries != null && !(entries instanceof JsonArray)) {
      throw HttpError.badRequest("launchDescriptor: env must be an array of {name, value}");
    }
    if (entries instanceof JsonArray array) {
      for (Object entry : array) {
        if (!(entry instanceof JsonObject e)) {
          throw HttpError.badRequest("launchDescriptor: env must be an array of {name, value}");
        }
        if (e.getValue("name") != null && e.getValue("value") != null) {
          env.put(String.valueOf(e.getValue("name")), text(e.getValue("value")));
        }
      }
    }
    LaunchDescriptor descriptor = new LaunchDescriptor(json.copy(), env);
    descriptor.checkTypes();
    return descriptor;
  }

  private void checkTypes() {
    if (json.getValue("dockerArgs") != null
        && !(json.getValue("dockerArgs") instanceof JsonObject)) {
      throw HttpError.badRequest("launchDescriptor: dockerArgs must be an object");
    }
    Object cmd = json.getValue("dockerCMD");
    if (cmd != null && !(cmd instanceof JsonArray)) {
      throw HttpError.badRequest("launchDescriptor: dockerCMD must be an array of strings");
    }
    Object pull = json.getValue("dockerPull");
    if (pull != null && !(pull instanceof Boolean)) {
      throw HttpError.badRequest("launchDescriptor: dockerPull must be true or false");
    }
    Object wait = json.getValue("waitIterations");
    if (wait != null && !(wait instanceof Number)) {
      throw HttpError.badRequest("launchDescriptor: waitIterations must be a number");
    }
  }

  private static String text(Object value) {
    return value == null ? null : String.valueOf(value);
  }

  /**
   * @return {@code exec}: the command line (split at single spaces, as Okapi splits it)
   */
  public String exec() {
    return text(json.getValue("exec"));
  }

  /**
   * @return {@code cmdlineStart}, run by {@code sh -c}
   */
  public String cmdlineStart() {
    return text(json.getValue("cmdlineStart"));
  }

  /**
   * @return {@code cmdlineStop}, run by {@code sh -c} when the module is undeployed
   */
  public String cmdlineStop() {
    return text(json.getValue("cmdlineStop"));
  }

  /**
   * @return the image of a container; null for a process
   */
  public String dockerImage() {
    return text(json.getValue("dockerImage"));
  }

  /**
   * @return whether the image is pulled before the container is created (default true)
   */
  public boolean dockerPull() {
    return !Boolean.FALSE.equals(json.getValue("dockerPull"));
  }

  /**
   * @return the container's command ({@code dockerCMD}); empty for the image's
   */
  public List<String> dockerCmd() {
    List<String> cmd = new ArrayList<>();
    JsonArray array = json.getJsonArray("dockerCMD");
    if (array != null) {
      array.forEach(c -> cmd.add(String.valueOf(c)));
    }
    return cmd;
  }

  /**
   * @return {@code dockerArgs}, merged into the container's creation; null if none
   */
  public JsonObject dockerArgs() {
    JsonObject args = json.getJsonObject("dockerArgs");
    return args == null ? null : args.copy();
  }

  /**
   * @return {@code waitIterations}; null if not given
   */
  public Integer waitIterations() {
    Number n = (Number) json.getValue("waitIterations");
    return n == null ? null : n.intValue();
  }

  /**
   * @return whether the module runs in a container
   */
  public boolean isDocker() {
    return dockerImage() != null;
  }

  /**
   * The descriptor a module is started from, as Okapi makes it: its {@code env} and {@code extra}
   * (Okapi's {@code /_/env}, which wins) in one list, in the order of Okapi's {@code HashMap} of
   * them by name; Okapi answers and stores the deployment with this list.
   */
  LaunchDescriptor withEnv(List<EnvEntry> extra) {
    Map<String, JsonObject> entries = new HashMap<>();
    if (json.getValue("env") instanceof JsonArray array) {
      array.forEach(
          e -> {
            JsonObject entry = (JsonObject) e;
            if (entry.getValue("name") != null) {
              entries.put(String.valueOf(entry.getValue("name")), entry.copy());
            }
          });
    }
    extra.forEach(e -> entries.put(e.name(), e.toJson()));
    if (entries.isEmpty()) {
      return this;
    }
    return of(json.copy().put("env", new JsonArray(new ArrayList<>(entries.values()))));
  }
}
