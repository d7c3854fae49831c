package io.okapigw.core.timer;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A timer's routing entry as JSON, the way Okapi 6.1.5 shows and patches it: only Okapi's
 * routing-entry fields, in its order; a PATCH replaces {@code unit}, {@code delay} and {@code
 * schedule} (all three: one left out becomes absent) and ignores the other fields.
 */
final class TimerEntry {

  /** Okapi's RoutingEntry properties, in the order its JSON lists them. */
  static final List<String> FIELDS =
      List.of(
          "methods",
          "pathPattern",
          "path",
          "rewritePath",
          "phase",
          "level",
          "type",
          "redirectPath",
          "unit",
          "delay",
          "schedule",
          "permissionsRequired",
          "permissionsDesired",
          "modulePermissions",
          "permissionsRequiredTenant",
          "delegateCORS");

  /** What a PATCH changes. */
  static final List<String> TIMING = List.of("unit", "delay", "schedule");

  private TimerEntry() {}

  /**
   * @return the handler's Okapi fields in Okapi's order ({@code delay} as a string)
   */
  static JsonObject view(JsonObject handler) {
    JsonObject view = new JsonObject();
    for (String field : FIELDS) {
      Object value = handler.getValue(field);
      if (value == null || field.equals("delegateCORS") && !Boolean.TRUE.equals(value)) {
        continue;
      }
      view.put(
          field,
          field.equals("delay") && value instanceof Number n
              ? String.valueOf(n.longValue())
              : value);
    }
    return view;
  }

  /**
   * @return whether the PATCH body sets none of unit, delay, schedule: Okapi then resets the timer
   *     to its module's descriptor
   */
  static boolean isReset(JsonObject patch) {
    return TIMING.stream().noneMatch(f -> patch.getValue(f) != null);
  }

  /**
   * Checks a PATCH body as Okapi decodes it into a routing entry.
   *
   * @throws HttpError 400 naming an unknown field or a bad unit, delay, cron or zone
   */
  static void check(JsonObject patch) {
    for (String field : patch.fieldNames()) {
      if (!FIELDS.contains(field)) {
        throw HttpError.badRequest(
            "timer routingEntry: unknown field "
                + field
                + " (only a routing entry's fields; unit, delay and schedule are used)");
      }
    }
    try {
      Schedule.of(patch);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("timer routingEntry: " + e.getMessage());
    }
  }

  /**
   * @return {@code entry} with the unit, delay and schedule of {@code timing} (and no others)
   */
  static JsonObject withTiming(JsonObject entry, JsonObject timing) {
    JsonObject merged = entry.copy();
    TIMING.forEach(merged::remove);
    TIMING.stream()
        .filter(f -> timing.getValue(f) != null)
        .forEach(f -> merged.put(f, timing.getValue(f)));
    return view(merged);
  }
}
