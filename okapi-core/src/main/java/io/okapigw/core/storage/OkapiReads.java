package io.okapigw.core.storage;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.timer.TimerStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Reads rows of Okapi's tables, whoever wrote them (Okapi 6.x, 7.0.x or this gateway). */
final class OkapiReads {

  private OkapiReads() {}

  /**
   * A tenant's enabled modules: those Okapi's {@code enabled} map marks {@code true}, in the order
   * this gateway enabled them ({@code okapigw_enable_order}); any it did not see enabled (Okapi
   * enabled them) follow in Okapi's order, the map's sorted keys.
   *
   * @param enabled Okapi's map, module id to {@code true}
   * @param order this gateway's order, or {@code null}
   */
  static List<String> enabled(JsonObject enabled, JsonArray order) {
    Set<String> on = new TreeSet<>();
    if (enabled != null) {
      enabled.forEach(
          e -> {
            if (Boolean.TRUE.equals(e.getValue())) {
              on.add(e.getKey());
            }
          });
    }
    Set<String> ordered = new LinkedHashSet<>();
    if (order != null) {
      order.stream().filter(on::contains).map(String.class::cast).forEach(ordered::add);
    }
    ordered.addAll(on);
    return List.copyOf(ordered);
  }

  /**
   * @return whether a row of {@code deployments} is an instance this gateway can call: a service,
   *     an instance id and a URL
   */
  static boolean served(JsonObject row) {
    return row.getValue("srvcId") instanceof String
        && row.getValue("instId") instanceof String
        && row.getValue("url") instanceof String;
  }

  static DeploymentDescriptor deployment(JsonObject row) {
    return DeploymentDescriptor.stored(row);
  }

  /**
   * A row of {@code timers}: Okapi's TimerDescriptor, id {@code <tenant>_<product>_<seq>}, as
   * Okapi's {@code TenantProductSeq} splits it.
   *
   * @return the change a PATCH made, or empty if the row is not a changed timer ({@code modified}
   *     false: a timer reset to its descriptor)
   */
  static Optional<TimerStore.Patch> timer(JsonObject row) {
    String id = row.getValue("id") instanceof String s ? s : "";
    int seq = id.lastIndexOf('_');
    int product = seq <= 0 ? -1 : id.lastIndexOf('_', seq - 1);
    if (!Boolean.TRUE.equals(row.getValue("modified"))
        || product <= 0
        || !(row.getValue("routingEntry") instanceof JsonObject entry)) {
      return Optional.empty();
    }
    return Optional.of(
        new TimerStore.Patch(id.substring(0, product), id.substring(product + 1), entry));
  }
}
