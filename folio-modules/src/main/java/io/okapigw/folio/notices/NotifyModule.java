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
 * Simulated mod-notify ({@code patron-notice} 1.0): accepts patron notices (recipient, template and
 * delivery channel required, else 422) and keeps the latest ones instead of sending mail.
 */
public final class NotifyModule {

  private final BoundedLog sent = new BoundedLog(1000);

  private NotifyModule() {}

  /**
   * @return the module
   */
  public static ModuleSpec spec() {
    NotifyModule module = new NotifyModule();
    return ModuleSpec.of("mod-notify", new Routes().on("POST", "/patron-notice", module::send));
  }

  private Future<Reply> send(ModuleRequest request) {
    JsonObject notice = request.json();
    for (String field : new String[] {"recipientId", "templateId", "deliveryChannel"}) {
      if (notice.getValue(field) == null) {
        throw ModuleError.unprocessable("must not be null", field, null);
      }
    }
    sent.add(notice);
    return Future.succeededFuture(Reply.ok(new JsonObject().put("sent", sent.total())));
  }
}
