package io.okapigw.authtoken.token;

import io.okapigw.authtoken.gateway.GatewayNotifier;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /authtoken/signing-key/rotate} (permission {@code authtoken.signing-key.rotate}):
 * writes a new random key to the key file and uses it; every token signed before is refused from
 * then on, here at once and in other instances sharing the file within their reload interval. The
 * gateway is told to drop everything ({@code {}}). Answers 204.
 */
public final class SigningKeyHandler {
  private static final Logger LOG = LoggerFactory.getLogger(SigningKeyHandler.class);

  private final SigningKey key;
  private final GatewayNotifier gateway;

  /**
   * @param key the signing key @param gateway gateway invalidation
   */
  public SigningKeyHandler(SigningKey key, GatewayNotifier gateway) {
    this.key = key;
    this.gateway = gateway;
  }

  /**
   * @param router router to add the route to
   */
  public void mount(Router router) {
    router.post("/authtoken/signing-key/rotate").handler(this::rotate);
  }

  private void rotate(RoutingContext ctx) {
    key.rotate()
        .onSuccess(v -> LOG.info("signing key rotated: tokens signed before are no longer valid"))
        .compose(v -> gateway.invalidateAll())
        .onSuccess(v -> ctx.response().setStatusCode(204).end())
        .onFailure(ctx::fail);
  }
}
