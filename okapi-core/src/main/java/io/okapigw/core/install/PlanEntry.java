package io.okapigw.core.install;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One module of an install or upgrade, in Okapi's {@code TenantModuleDescriptor} shape: {@code
 * {"id", "from", "action", "message", "stage"}}. Mutable: the planner resolves ids and adds {@code
 * from}; the job runner moves the stage along and records a failure's message.
 */
final class PlanEntry {

  /** What happens to the module. */
  enum Action {
    ENABLE,
    DISABLE,
    UPTODATE,
    SUGGEST,
    CONFLICT;

    String json() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** How far the module got; a {@code message} tells at which stage it failed. */
  enum Stage {
    PENDING,
    DEPLOY,
    INVOKE,
    UNDEPLOY,
    DONE;

    String json() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private String id;
  private String from;
  private Action action;
  private String message;
  private Stage stage;

  PlanEntry(String id, String from, Action action) {
    this.id = id;
    this.from = from;
    this.action = action;
  }

  /**
   * Reads an install request: a JSON array of {@code {"id", "action"}}.
   *
   * @throws HttpError 400 naming the entry that is not an object, lacks an id or an action, or has
   *     an unknown action
   */
  static List<PlanEntry> listFromJson(JsonArray array) {
    List<PlanEntry> list = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      if (!(array.getValue(i) instanceof JsonObject json)) {
        throw HttpError.badRequest("install: entry " + i + " is not a JSON object");
      }
      list.add(fromJson(json, i));
    }
    return list;
  }

  private static PlanEntry fromJson(JsonObject json, int index) {
    if (!(json.getValue("id") instanceof String id) || id.isBlank()) {
      throw HttpError.badRequest("install: entry " + index + " has no id");
    }
    Object action = json.getValue("action");
    if (action == null) {
      throw HttpError.badRequest("Missing action for id " + id);
    }
    PlanEntry entry = new PlanEntry(id, json.getString("from"), action(action, id));
    String stage = json.getString("stage");
    entry.stage = stage == null ? null : Stage.valueOf(stage.toUpperCase(Locale.ROOT));
    entry.message = json.getString("message");
    return entry;
  }

  private static Action action(Object value, String id) {
    for (Action a : Action.values()) {
      if (a.json().equals(value)) {
        return a;
      }
    }
    throw HttpError.badRequest(
        "install: unknown action '"
            + value
            + "' for "
            + id
            + " (enable, disable, uptodate, suggest or conflict)");
  }

  /** Reads an entry as a job stores it. */
  static PlanEntry stored(JsonObject json) {
    return fromJson(json, 0);
  }

  String id() {
    return id;
  }

  void id(String newId) {
    id = newId;
  }

  String from() {
    return from;
  }

  void from(String newFrom) {
    from = newFrom;
  }

  Action action() {
    return action;
  }

  void action(Action newAction) {
    action = newAction;
  }

  String message() {
    return message;
  }

  void message(String newMessage) {
    message = newMessage;
  }

  Stage stage() {
    return stage;
  }

  void stage(Stage newStage) {
    stage = newStage;
  }

  /**
   * @return whether the job runner has work for it: enable or disable
   */
  boolean changes() {
    return action == Action.ENABLE || action == Action.DISABLE;
  }

  /**
   * @return the entry as Okapi answers it, with the stage when {@code withStage}
   */
  JsonObject toJson(boolean withStage) {
    JsonObject json = new JsonObject().put("id", id);
    if (from != null) {
      json.put("from", from);
    }
    json.put("action", action.json());
    if (message != null) {
      json.put("message", message);
    }
    if (withStage && stage != null) {
      json.put("stage", stage.json());
    }
    return json;
  }

  /**
   * @return the entries as Okapi answers them
   */
  static JsonArray toJson(List<PlanEntry> entries, boolean withStage) {
    JsonArray array = new JsonArray();
    entries.forEach(e -> array.add(e.toJson(withStage)));
    return array;
  }

  @Override
  public String toString() {
    return toJson(true).encode();
  }
}
