package io.okapigw.authtoken.gateway;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Used without {@code --gateway-url}: skips every invalidation (logged at debug). */
final class DisabledGatewayNotifier implements GatewayNotifier {
  private static final Logger LOG = LoggerFactory.getLogger(DisabledGatewayNotifier.class);

  @Override
  public Future<Void> invalidate(JsonObject body) {
    LOG.debug("no --gateway-url: skipping auth-cache invalidation of {}", body.fieldNames());
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }
}
