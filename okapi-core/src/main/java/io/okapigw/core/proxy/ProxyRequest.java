package io.okapigw.core.proxy;

import io.okapigw.cache.AuthDecision;
import io.okapigw.core.auth.AuthRequest;
import io.okapigw.core.auth.Grants;
import io.okapigw.core.callback.Call;
import io.okapigw.core.eureka.SidecarHeaders;
import io.okapigw.core.http.HeaderNames;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.registry.AuthKind;
import io.okapigw.core.routing.Pipeline;
import io.okapigw.core.routing.Stage;
import io.okapigw.core.upstream.ModuleCall;
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
 * @param call the call this request is, in flight until answered: its X-Okapi-Request-Id
 * @param okapiUrl the gateway's URL for modules
 * @param receivedAt when the request arrived, epoch milliseconds (X-Okapi-request-timestamp)
 * @param grant the auth module's grant, or {@code null} if the tenant has no auth filter
 * @param auth who decides on the tenant's requests
 * @param systemToken the {@code X-System-Token} the modules get (a module's call back on an Eureka
 *     tenant), or null
 */
record ProxyRequest(
    HttpServerRequest in,
    RequestTarget target,
    ClientIdentity identity,
    Pipeline pipeline,
    Call call,
    String okapiUrl,
    long receivedAt,
    AuthDecision grant,
    AuthKind auth,
    String systemToken) {

  /**
   * The client's headers a module never gets: those never forwarded, the client's credentials, what
   * it claims about its identity and permissions, and those the gateway writes itself (identity,
   * request and filter results: added by the gateway, never looked up and replaced, so no client
   * line of them gets through beside the gateway's).
   */
  private static final HeaderNames NOT_TO_MODULES =
      OkapiHeaders.NOT_FORWARDED.with(
          OkapiHeaders.AUTHORIZATION,
          OkapiHeaders.TOKEN,
          OkapiHeaders.USER_ID,
          OkapiHeaders.PERMISSIONS,
          OkapiHeaders.MODULE_ID,
          OkapiHeaders.TENANT,
          OkapiHeaders.URL,
          OkapiHeaders.URL_TO,
          OkapiHeaders.REQUEST_ID,
          OkapiHeaders.REQUEST_TIMESTAMP,
          OkapiHeaders.REQUEST_METHOD,
          OkapiHeaders.MATCH_PATH_PATTERN,
          OkapiHeaders.REQUEST_IP,
          OkapiHeaders.HANDLER_RESULT,
          OkapiHeaders.HANDLER_HEADERS,
          OkapiHeaders.AUTH_RESULT,
          OkapiHeaders.AUTH_HEADERS,
          OkapiHeaders.SYSTEM_TOKEN);

  /**
   * What the auth filter never gets besides: the cookies. The token read from them (by {@link
   * io.okapigw.credentials.Credentials}) is its only credential, as {@code X-Okapi-Token}, so that
   * it decides on exactly what the decision is cached under.
   */
  private static final HeaderNames NOT_TO_AUTH = NOT_TO_MODULES.with("Cookie");

  /** What an Eureka tenant's module never gets besides, as the sidecar ({@link SidecarHeaders}). */
  private static final HeaderNames NOT_TO_EUREKA_MODULES =
      NOT_TO_MODULES.with(SidecarHeaders.NOT_TO_MODULES.toArray(String[]::new));

  ProxyRequest withGrant(AuthDecision newGrant) {
    return new ProxyRequest(
        in, target, identity, pipeline, call, okapiUrl, receivedAt, newGrant, auth, systemToken);
  }

  ProxyRequest withSystemToken(String token) {
    return new ProxyRequest(
        in, target, identity, pipeline, call, okapiUrl, receivedAt, grant, auth, token);
  }

  /**
   * @return this hop's X-Okapi-Request-Id, the call's
   */
  String requestId() {
    return call.requestId();
  }

  AuthRequest authRequest() {
    return new AuthRequest(
        identity.tenant(),
        in.method(),
        target.uri(),
        identity.token(),
        identity.userId(),
        pipeline,
        (headers, stage) -> writeCommonHeaders(headers, stage, NOT_TO_AUTH));
  }

  /**
   * @return the path and query the handler and filters get (where redirects led)
   */
  String handlerUri() {
    return target.withPath(pipeline.handlerPath());
  }

  /**
   * @return the path and query {@code stage}'s module is called with: {@link #handlerUri()}, with
   *     its entry's {@code rewritePath} before it
   */
  String uriFor(Stage stage) {
    return stage.entry().moduleUri(handlerUri());
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
   * Okapi's request headers (an Eureka tenant's: the sidecar's, {@link SidecarHeaders}), the token
   * for the stage's module, and the user id and permissions the auth filter vouched for (never
   * permissions the client sent).
   *
   * <p>The call's key goes with them: the connection's peer is noted as a place its call backs may
   * come from ({@link Call#sentTo}).
   *
   * @param module the call to the stage's module, its headers empty
   */
  void writeModuleHeaders(ModuleCall module, Stage stage) {
    MultiMap headers = module.headers();
    call.sentTo(module.peer());
    writeCommonHeaders(
        headers, stage, auth == AuthKind.EUREKA ? NOT_TO_EUREKA_MODULES : NOT_TO_MODULES);
    String token = tokenFor(stage);
    if (token != null) {
      headers.add(OkapiHeaders.TOKEN, token);
    }
    if (grant != null && !grant.userId().isEmpty()) {
      headers.add(OkapiHeaders.USER_ID, grant.userId());
    }
    if (grant != null && !grant.permissions().isEmpty()) {
      headers.add(OkapiHeaders.PERMISSIONS, grant.permissions());
    }
    if (systemToken != null) {
      headers.add(OkapiHeaders.SYSTEM_TOKEN, systemToken);
    }
  }

  /**
   * @param headers a new request's headers, empty
   * @param dropped the client's headers not copied
   */
  private void writeCommonHeaders(MultiMap headers, Stage stage, HeaderNames dropped) {
    dropped.copyAllBut(in.headers(), headers);
    headers
        .add(OkapiHeaders.TENANT, identity.tenant())
        .add(OkapiHeaders.URL, okapiUrl)
        .add(OkapiHeaders.REQUEST_ID, call.requestId());
    if (auth == AuthKind.EUREKA) {
      headers.add(SidecarHeaders.SIGNATURE, SidecarHeaders.signature());
      return;
    }
    headers
        .add(OkapiHeaders.REQUEST_TIMESTAMP, Long.toString(receivedAt))
        .add(OkapiHeaders.REQUEST_METHOD, in.method().name())
        .add(OkapiHeaders.MATCH_PATH_PATTERN, stage.pathPattern());
    SocketAddress remote = in.remoteAddress();
    if (remote != null && remote.host() != null) {
      headers.add(OkapiHeaders.REQUEST_IP, remote.host());
    }
  }
}
