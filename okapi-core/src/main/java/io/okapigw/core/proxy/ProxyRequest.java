package io.okapigw.core.proxy;

import io.okapigw.cache.AuthDecision;
import io.okapigw.core.auth.AuthRequest;
import io.okapigw.core.auth.Grants;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.routing.Pipeline;
import io.okapigw.core.routing.Stage;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;

/**
 * One client request on its way through the pipeline.
 *
 * @param in the client's request (paused until the handler stage streams it)
 * @param target the path and query the request was routed by
 * @param identity tenant and client token
 * @param pipeline the matched stages
 * @param requestId this hop's X-Okapi-Request-Id
 * @param okapiUrl the gateway's URL for modules
 * @param receivedAt when the request arrived, epoch milliseconds (X-Okapi-request-timestamp)
 * @param grant the auth module's grant, or {@code null} if the tenant has no auth filter
 */
record ProxyRequest(
    HttpServerRequest in,
    RequestTarget target,
    ClientIdentity identity,
    Pipeline pipeline,
    String requestId,
    String okapiUrl,
    long receivedAt,
    AuthDecision grant) {

  ProxyRequest withGrant(AuthDecision newGrant) {
    return new ProxyRequest(
        in, target, identity, pipeline, requestId, okapiUrl, receivedAt, newGrant);
  }

  AuthRequest authRequest() {
    return new AuthRequest(
        identity.tenant(),
        in.method(),
        target.uri(),
        identity.token(),
        in.getHeader(OkapiHeaders.USER_ID),
        pipeline,
        this::writeCommonHeaders);
  }

  /**
   * @return the path and query the handler and filters get (where redirects led)
   */
  String handlerUri() {
    return target.withPath(pipeline.handlerPath());
  }

  /**
   * @return the token {@code stage}'s module gets: from the grant, else the client's
   */
  String tokenFor(Stage stage) {
    return grant == null
        ? identity.token()
        : Grants.tokenFor(grant, stage.moduleId(), identity.token());
  }

  /**
   * Writes the headers a module's handler or filter receives: the client's forwardable headers,
   * Okapi's request headers, the token for the stage's module, and the user id and permissions the
   * auth filter vouched for (never permissions the client sent).
   */
  void writeModuleHeaders(MultiMap headers, Stage stage) {
    writeCommonHeaders(headers, stage);
    String token = tokenFor(stage);
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

  private void writeCommonHeaders(MultiMap headers, Stage stage) {
    OkapiHeaders.copyForwardable(in.headers(), headers);
    headers.remove(OkapiHeaders.AUTHORIZATION);
    headers.remove(OkapiHeaders.TOKEN);
    headers.remove(OkapiHeaders.PERMISSIONS);
    headers.remove(OkapiHeaders.MODULE_ID);
    headers
        .set(OkapiHeaders.TENANT, identity.tenant())
        .set(OkapiHeaders.URL, okapiUrl)
        .set(OkapiHeaders.REQUEST_ID, requestId)
        .set(OkapiHeaders.REQUEST_TIMESTAMP, Long.toString(receivedAt))
        .set(OkapiHeaders.REQUEST_METHOD, in.method().name())
        .set(OkapiHeaders.MATCH_PATH_PATTERN, stage.pathPattern());
    SocketAddress remote = in.remoteAddress();
    if (remote != null && remote.host() != null) {
      headers.set(OkapiHeaders.REQUEST_IP, remote.host());
    }
  }
}
