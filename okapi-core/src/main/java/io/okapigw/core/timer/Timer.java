package io.okapigw.core.timer;

import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RoutingEntry;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;

/**
 * One timer of one tenant: a handler of an enabled module's {@code _timer} system interface, with
 * the change a PATCH made to it, if any.
 *
 * @param tenant the tenant it runs for
 * @param id Okapi's id, {@code <product>_<seq>}
 * @param module the enabled module that provides it
 * @param handler the handler called (method, path, module permissions)
 * @param entry the routing entry as Okapi shows it, patched if {@code modified}
 * @param modified whether a PATCH changed it
 * @param schedule when it fires, read from {@code entry}
 */
record Timer(
    String tenant,
    TimerId id,
    ModuleDescriptor module,
    RoutingEntry handler,
    JsonObject entry,
    boolean modified,
    Schedule schedule) {

  /**
   * @return Okapi's TimerDescriptor: {@code {id, routingEntry, modified}}
   */
  JsonObject toJson() {
    return new JsonObject()
        .put("id", id.toString())
        .put("routingEntry", entry.copy())
        .put("modified", modified);
  }

  /**
   * @return the method called: the handler's first, as in Okapi (POST for {@code *}, and for a
   *     handler without methods, which Okapi takes)
   */
  HttpMethod method() {
    String first = handler.methods().isEmpty() ? "POST" : handler.methods().get(0);
    return first.equals("*") ? HttpMethod.POST : HttpMethod.valueOf(first);
  }

  /**
   * @return the path called: the handler's {@code path}, else its {@code pathPattern}
   */
  String path() {
    return handler.staticPath();
  }

  /**
   * @return the timer's key among every tenant's timers
   */
  String key() {
    return tenant + "/" + id;
  }

  /**
   * @return the same seed on every node, so periodic timers fire at the same instants
   */
  long phaseSeed() {
    return key().hashCode();
  }

  /**
   * @return whether {@code other} is this timer, unchanged (same module, entry, schedule)
   */
  boolean sameAs(Timer other) {
    return other != null
        && key().equals(other.key())
        && module.id().equals(other.module.id())
        && entry.equals(other.entry)
        && modified == other.modified;
  }
}
