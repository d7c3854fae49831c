package io.okapigw.core.proxy;

import io.okapigw.cache.AuthDecision;
import io.okapigw.core.auth.Grants;
import io.okapigw.core.auth.AuthRequest;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.routing.Pipeline;
import io.okapigw.core.routing.Stage;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;

/**
 * One client request on its way through the pipeline.
 *
 * @param in the client's request (paused until the handler stage streams it)
 * @param identity tenant and client token
 * @param pipeline the matched stages
 * @param requestId this hop's X-Okapi-Request-Id
 * @param okapiUrl the gateway's URL for modules
 * @param grant the auth module's grant, or {@code null} if the tenant has no auth filter
 */
record ProxyRequest(HttpServerRequest in, ClientIdentity identity, Pipeline pipeline,
    String requestId, String okapiUrl, AuthDecision grant) {

  ProxyRequest withGrant(AuthDecision newGrant) {
    return new ProxyRequest(in, identity, pipeline, requestId, okapiUrl, newGrant);
  }

  AuthRequest authRequest() {
    return new AuthRequest(identity.tenant(), in.method(), in.uri(), identity.token(),
        in.getHeader(OkapiHeaders.USER_ID), requestId, okapiUrl, pipeline);
  }

  /**
   * Sets the Okapi headers a module receives: tenant, URL, request id, token, and the user id
   * and permissions the auth filter vouched for (never ones the client sent).
   *
   * @param stage the stage the headers are for
   * @param originalToken give the client's token (filters) instead of the stage's module token
   */
  void applyOkapiHeaders(MultiMap headers, Stage stage, boolean originalToken) {
    OkapiHeaders.removeBearer(headers);
    headers.remove(OkapiHeaders.PERMISSIONS);
    headers.remove(OkapiHeaders.TOKEN);
    headers.set(OkapiHeaders.TENANT, identity.tenant())
        .set(OkapiHeaders.URL, okapiUrl)
        .set(OkapiHeaders.REQUEST_ID, requestId);
    String token = grant == null || originalToken ? identity.token()
        : Grants.tokenFor(grant, stage.moduleId(), identity.token());
    if (token != null) {
      headers.set(OkapiHeaders.TOKEN, token);
    }
    if (grant != null && !grant.userId().isEmpty()) {
      headers.set(OkapiHeaders.USER_ID, grant.userId());
    }
    if (grant != null && !grant.permissions().isEmpty()) {
      headers.set(OkapiHeaders.PERMISSIONS, grant.permissions());
    }
  }
}
