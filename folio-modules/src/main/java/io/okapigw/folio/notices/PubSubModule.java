package io.okapigw.folio.notices;

import io.okapigw.folio.module.BoundedLog;
import io.okapigw.folio.module.ModuleError;
import io.okapigw.folio.module.ModuleRequest;
import io.okapigw.folio.module.ModuleSpec;
import io.okapigw.folio.module.Reply;
import io.okapigw.folio.module.Routes;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Simulated mod-pubsub ({@code pubsub-publish} 0.1): accepts published events (event type required,
 * else 422) with 204 and keeps the latest ones; there are no subscribers.
 */
public final class PubSubModule {

  private final BoundedLog events = new BoundedLog(1000);

  private PubSubModule() {}

  /**
   * @return the module
   */
  public static ModuleSpec spec() {
    PubSubModule module = new PubSubModule();
    return ModuleSpec.of("mod-pubsub", new Routes().on("POST", "/pubsub/publish", module::publish));
  }

  private Future<Reply> publish(ModuleRequest request) {
    JsonObject event = request.json();
    if (!(event.getValue("eventType") instanceof String)) {
      throw ModuleError.unprocessable("must not be null", "eventType", null);
    }
    events.add(event);
    return Future.succeededFuture(Reply.noContent());
  }
}
