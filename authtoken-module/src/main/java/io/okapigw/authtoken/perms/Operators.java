package io.okapigw.authtoken.perms;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import java.util.Optional;

/** Tells who the caller of a request that grants permissions is, from the request's token. */
@FunctionalInterface
public interface Operators {

  /**
   * @param tenant the request's tenant
   * @param headers the request's headers
   * @return the caller; empty for a request without a token (auth is not enabled: the module is
   *     called directly, as mod-permissions treats a request without {@code X-Okapi-Token}); failed
   *     with an {@link io.okapigw.authtoken.http.ApiException} (401, 403) for a token that does not
   *     verify, is another tenant's, or whose session or user is gone
   */
  Future<Optional<Operator>> of(String tenant, MultiMap headers);
}
