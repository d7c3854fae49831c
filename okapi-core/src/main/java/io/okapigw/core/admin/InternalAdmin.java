package io.okapigw.core.admin;

import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.proxy.InternalHandler;
import io.okapigw.core.routing.Stage;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;

/**
 * The okapi module's handlers, served by the admin API's router once the proxy has routed and
 * authorized the request like any module's.
 */
public final class InternalAdmin implements InternalHandler {

  private final String moduleId;
  private final Router router;

  /**
   * @param moduleId the okapi module's id
   * @param router the admin API's routes (see {@link AdminApi#router})
   */
  public InternalAdmin(String moduleId, Router router) {
    this.moduleId = moduleId;
    this.router = router;
  }

  @Override
  public boolean serves(Stage handler) {
    return handler.moduleId().equals(moduleId);
  }

  @Override
  public Future<Integer> handle(HttpServerRequest in, String tenant) {
    // the tenant the request was routed and authorized for, also when the token named it: what
    // SupertenantOnly decides by (Okapi too sets X-Okapi-Tenant when the token names the tenant)
    in.headers().set(OkapiHeaders.TENANT, tenant);
    HttpServerResponse response = in.response();
    Promise<Integer> answered = Promise.promise();
    response.endHandler(v -> answered.tryComplete(response.getStatusCode()));
    response.closeHandler(v -> answered.tryFail("connection closed before the admin answer"));
    router.handle(in);
    return answered.future();
  }
}
