package io.okapigw.core.proxy;

import io.micrometer.core.instrument.MeterRegistry;
import io.okapigw.cache.AuthDecision;
import io.okapigw.core.auth.AuthModuleCalls;
import io.okapigw.core.auth.AuthRefusal;
import io.okapigw.core.auth.AuthStage;
import io.okapigw.core.auth.ConfirmedTokens;
import io.okapigw.core.auth.ConfirmedTokens.Identity;
import io.okapigw.core.bulkhead.TenantBulkhead;
import io.okapigw.core.bulkhead.TenantBulkhead.Place;
import io.okapigw.core.callback.Call;
import io.okapigw.core.callback.CallBacks;
import io.okapigw.core.eureka.EurekaAuthStage;
import io.okapigw.core.http.Failures;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.http.RequestIds;
import io.okapigw.core.registry.AuthKind;
import io.okapigw.core.routing.Pipeline;
import io.okapigw.core.routing.RoutingTable;
import io.okapigw.core.routing.RoutingTables;
import io.okapigw.core.server.Drain;
import io.okapigw.core.tracing.RequestTrace;
import io.okapigw.core.tracing.Tracing;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * Every request that is not for the admin API: identify the tenant, match the tenant's routing
 * table, then run the pipeline as one flat chain: auth, the request's place in its tenant's
 * bulkhead, pre filters, handler, post filters.
 */
public final class ProxyHandler implements Handler<HttpServerRequest> {

  private final RoutingTables tables;
  private final AuthStage auth;
  private final FilterCalls filters;
  private final Forwarder forwarder;
  private final BufferedHandler buffered;
  private final String okapiUrl;
  private final RequestMetrics metrics;
  private final ParallelAuth parallel;
  private final ConfirmedTokens confirmed;
  private final InternalHandler internal;
  private final WaitLog waitLog;
  private final TenantBulkhead bulkhead;
  private final CallBacks calls;
  private final Drain drain;
  private final Tracing tracing;
  private final EurekaAuthStage eureka;

  /**
   * @param tables the compiled routing tables
   * @param modules opens the calls to module instances
   * @param auth decides on requests of tenants that have an auth filter
   * @param okapiUrl the gateway's URL as modules should call it (X-Okapi-Url)
   * @param registry where request timings go
   * @param authParallel whether safe requests run their handler during the auth call ({@code
   *     auth.parallel=safe})
   * @param confirmed the tokens the auth module has confirmed: the only ones whose requests run in
   *     parallel
   * @param internal serves the gateway's own module (the admin API)
   * @param waitLog how often a request waiting for its answer is logged (Okapi's {@code
   *     log_wait_ms}); zero for never
   * @param bulkhead each tenant's limits on its clients' requests
   * @param calls the node's calls in flight: which requests are modules' call backs
   * @param drain whether the node drains: then only call backs are served
   * @param tracing spans and access log lines of requests (nothing when off)
   * @param eureka decides on requests of Eureka tenants (Keycloak)
   * @param authModule bounds the handler calls to the tenant's auth module as its auth-filter calls
   * @param buffers the bounds of bodies read whole ({@code proxy.buffered-*})
   */
  public ProxyHandler(
      RoutingTables tables,
      ModuleClient modules,
      AuthStage auth,
      String okapiUrl,
      MeterRegistry registry,
      boolean authParallel,
      ConfirmedTokens confirmed,
      InternalHandler internal,
      Duration waitLog,
      TenantBulkhead bulkhead,
      CallBacks calls,
      Drain drain,
      Tracing tracing,
      EurekaAuthStage eureka,
      AuthModuleCalls authModule,
      BufferOptions buffers) {
    this.bulkhead = bulkhead;
    this.calls = calls;
    this.drain = drain;
    this.eureka = eureka;
    this.tables = tables;
    this.metrics = new RequestMetrics(registry);
    this.auth = auth;
    this.filters = new FilterCalls(modules);
    this.forwarder = new Forwarder(modules, authModule);
    this.buffered = new BufferedHandler(modules, authModule, new BodyBudget(buffers, registry));
    this.parallel = authParallel ? new ParallelAuth(forwarder) : null;
    this.confirmed = confirmed;
    this.okapiUrl = okapiUrl;
    this.internal = internal;
    this.waitLog = new WaitLog(waitLog);
    this.tracing = tracing;
  }

  @Override
  public void handle(HttpServerRequest in) {
    handle(in, null, RequestTarget.of(in));
  }

  /**
   * Proxies a request of {@code /_/invoke/tenant/{tenant}/{path}} for {@code tenant} as a request
   * for {@code /{path}}.
   */
  public void invoke(HttpServerRequest in, InvokePath invoke) {
    handle(in, invoke.tenant(), new RequestTarget(invoke.path(), in.query()));
  }

  /**
   * Sends a CORS preflight through {@code /_/invoke/tenant/...} to the module whose handler has
   * {@code delegateCORS}, as it is: no auth filter (preflights carry no credentials), no filters.
   */
  void delegatePreflight(HttpServerRequest in, InvokePath invoke) {
    in.pause();
    String method = in.getHeader(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD);
    RequestTarget target = new RequestTarget(invoke.path(), in.query());
    Future<ProxyRequest> routed = routed(in, method, invoke.tenant(), target);
    routed
        .compose(forwarder::forward)
        .onFailure(e -> fail(in, e))
        .onComplete(done -> closeCall(routed));
  }

  private void handle(HttpServerRequest in, String tenant, RequestTarget target) {
    in.pause();
    long start = System.nanoTime();
    RequestTrace trace = tracing.start(in, tenant);
    Future<ProxyRequest> routed = routed(in, in.method().name(), tenant, target);
    routed
        .compose(
            request -> {
              if (trace != null) {
                trace.routed(request.requestId(), request.identity().tenant());
              }
              Place place = place(request);
              Future<Integer> answered = authorizeAndForward(request, place);
              waitLog.watch(request, start, answered);
              return answered.andThen(done -> place.release());
            })
        .onComplete(
            done -> {
              if (done.failed()) {
                fail(in, done.cause());
              }
              closeCall(routed);
              metrics.record(
                  routed.succeeded() ? routed.result().identity().tenant() : "unknown",
                  in.method().name(),
                  in.response().getStatusCode(),
                  start);
              if (trace != null) {
                tracing.end(trace, in, finished(routed));
              }
            });
  }

  /** The request, once routed, is a call in flight until answered (or given up). */
  private static void closeCall(Future<ProxyRequest> routed) {
    if (routed.succeeded()) {
      routed.result().call().close();
    }
  }

  /**
   * A client's request takes a place in its tenant's bulkhead once its auth decision is known; a
   * module's call back never counts.
   */
  private Place place(ProxyRequest request) {
    String tenant = request.identity().tenant();
    return bulkhead.place(
        tenant,
        calls.callerOf(tenant, request.in().getHeader(OkapiHeaders.REQUEST_ID)).isPresent());
  }

  private static Tracing.Finished finished(Future<ProxyRequest> routed) {
    if (routed.failed()) {
      return new Tracing.Finished("unknown", null, null, null);
    }
    ProxyRequest request = routed.result();
    return new Tracing.Finished(
        request.identity().tenant(),
        RequestIds.loggable(request.requestId()),
        request.pipeline().handler().pathPattern(),
        request.pipeline().handler().moduleId());
  }

  /**
   * Once a draining node takes no more client requests, refuses any request that is not a module's
   * call back of a request in flight (503), before any module is called.
   */
  private void refuseIfDraining(String tenant, HttpServerRequest in) {
    if (drain.refusesClients()
        && calls.callerOf(tenant, in.getHeader(OkapiHeaders.REQUEST_ID)).isEmpty()) {
      throw Drain.refusal();
    }
  }

  /** Routes the request as a plain call: routing needs no I/O, its future is complete. */
  private Future<ProxyRequest> routed(
      HttpServerRequest in, String method, String tenant, RequestTarget target) {
    try {
      return Future.succeededFuture(route(in, method, tenant, target));
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  private ProxyRequest route(
      HttpServerRequest in, String method, String tenant, RequestTarget target) {
    ClientIdentity identity =
        tenant == null
            ? ClientIdentity.from(in.headers())
            : ClientIdentity.forTenant(tenant, in.headers());
    refuseIfDraining(identity.tenant(), in);
    RoutingTable table =
        tables
            .forTenant(identity.tenant())
            .orElseThrow(() -> HttpError.badRequest("unknown tenant " + identity.tenant()));
    String moduleId = in.getHeader(OkapiHeaders.MODULE_ID);
    Pipeline pipeline =
        table
            .match(method, target.path(), moduleId)
            .orElseThrow(
                () ->
                    HttpError.notFound(
                        "no module serves "
                            + method
                            + " "
                            + target.path()
                            + " for tenant "
                            + identity.tenant()
                            + (moduleId == null ? "" : " in module " + moduleId)));
    return new ProxyRequest(
        in,
        target,
        identity,
        pipeline,
        calls.open(
            identity.tenant(),
            in.getHeader(OkapiHeaders.REQUEST_ID),
            target.path(),
            callingBack(pipeline)),
        okapiUrl,
        System.currentTimeMillis(),
        null,
        table.auth(),
        null);
  }

  /**
   * @return the module that calls back with the call's key: its handler's, if no other module of
   *     the pipeline gets the key; else null
   */
  private static String callingBack(Pipeline pipeline) {
    return pipeline.auth().isEmpty() && pipeline.pre().isEmpty() && pipeline.post().isEmpty()
        ? pipeline.handler().moduleId()
        : null;
  }

  /**
   * Auth, then the request's place in its tenant's bulkhead (taken as soon as the decision is
   * known: a refused request never takes one, an anonymous one only within the anonymous share),
   * then pre filters, handler and post filters. An Eureka tenant's requests are decided by Keycloak
   * ({@link EurekaAuthStage}).
   */
  private Future<Integer> authorizeAndForward(ProxyRequest request, Place place) {
    if (request.auth() == AuthKind.EUREKA) {
      return eurekaAuthorizeAndForward(request, place);
    }
    AuthRefusal keycloakToken =
        eureka.refusalOnOkapiTenant(request.identity().tenant(), request.identity().token());
    if (keycloakToken != null) {
      return refused(request, keycloakToken);
    }
    if (request.pipeline().auth().isEmpty()) {
      place.take(false);
      return preThenForward(request);
    }
    Future<AuthDecision> decision = auth.authorize(request.authRequest());
    Optional<Identity> known =
        parallel == null ? Optional.empty() : parallelWith(request, decision);
    if (known.isPresent()) {
      place.take(known.get().userId().isEmpty());
      return parallel
          .run(request, decision, known.get())
          .onSuccess(status -> postFilters(request, status))
          .recover(e -> refused(request, e));
    }
    return decision.compose(
        grant -> {
          place.take(grant.userId().isEmpty());
          return preThenForward(request.withGrant(grant));
        },
        e -> refused(request, e));
  }

  /** The pre filters, then the handler, unless a pre filter stopped the pipeline. */
  private Future<Integer> preThenForward(ProxyRequest request) {
    return filters
        .pre(request)
        .compose(
            this::forward,
            e -> {
              if (e instanceof FilterCalls.Stopped stopped) {
                request.in().resume();
                return stopped.answer(request.in());
              }
              return Future.failedFuture(e);
            });
  }

  /**
   * An Eureka tenant's request: a module's call back (its {@code X-Okapi-Request-Id} carries the
   * key of a call of the tenant this node has in flight, {@link CallBacks#callerOf}) is decided as
   * the sidecar's egress marks a module's call, with the tenant's service token ({@code
   * X-System-Token}) and, if it carries no user's token, the calling module's system user's, when
   * it comes from the address of a module connection the call was sent on ({@link
   * Call#isCalledBackFrom}): the key alone is not enough, since a module may leak it (its body, its
   * log) and a client replay it. Any other request is a client's.
   */
  private Future<Integer> eurekaAuthorizeAndForward(ProxyRequest request, Place place) {
    String tenant = request.identity().tenant();
    HttpServerRequest in = request.in();
    Optional<Call> caller =
        calls
            .callerOf(tenant, in.getHeader(OkapiHeaders.REQUEST_ID))
            .filter(call -> call.isCalledBackFrom(sourceOf(in)));
    if (caller.isPresent()) {
      return eureka
          .authorizeModuleCall(request.authRequest(), caller.get().module())
          .compose(
              call -> {
                place.take(call.grant().userId().isEmpty());
                return preThenForward(
                    request.withGrant(call.grant()).withSystemToken(call.systemToken()));
              },
              e -> refused(request, e));
    }
    return eureka
        .authorize(request.authRequest())
        .compose(
            grant -> {
              place.take(grant.userId().isEmpty());
              return preThenForward(request.withGrant(grant));
            },
            e -> refused(request, e));
  }

  private static String sourceOf(HttpServerRequest in) {
    SocketAddress remote = in.remoteAddress();
    return remote == null ? null : remote.hostAddress();
  }

  /**
   * @return the identity the handler may run with before the decision, if the request may run so: a
   *     safe request the cache could not decide at once, of a token the auth module confirmed
   */
  private Optional<Identity> parallelWith(ProxyRequest request, Future<AuthDecision> decision) {
    if (decision.isComplete()
        || !ParallelAuth.eligible(request)
        || internal.serves(request.pipeline().handler())) {
      return Optional.empty();
    }
    ClientIdentity identity = request.identity();
    return confirmed.of(identity.tenant(), identity.token(), identity.userId());
  }

  private Future<Integer> forward(ProxyRequest request) {
    Future<Integer> answered =
        internal.serves(request.pipeline().handler())
            ? internalCall(request)
            : BufferedHandler.serves(request)
                ? buffered.forward(request)
                : forwarder.forward(request);
    return request.pipeline().post().isEmpty()
        ? answered
        : answered.onSuccess(status -> postFilters(request, status));
  }

  private Future<Integer> internalCall(ProxyRequest request) {
    tracing.internal(request.in(), request.pipeline().handler().moduleId());
    return internal.handle(request.in(), request.identity().tenant());
  }

  /**
   * Tells the post filters the handler's answer, unless the handler ended the pipeline with Okapi's
   * {@code X-Okapi-Stop}.
   */
  private void postFilters(ProxyRequest request, int status) {
    if (!request.pipeline().post().isEmpty()
        && !request.in().response().headers().contains(OkapiHeaders.STOP)) {
      filters.post(request, status, request.in().response().headers());
    }
  }

  /**
   * The auth filter's refusal goes to the client as Okapi sends it; pre filters are told before and
   * post filters after, with {@code X-Okapi-Auth-Result}.
   */
  private Future<Integer> refused(ProxyRequest request, Throwable e) {
    if (!(e instanceof AuthRefusal refusal)) {
      return Future.failedFuture(e);
    }
    return filters
        .preAfterRefusal(request, refusal.status())
        .map(
            v -> {
              fail(request.in(), refusal);
              if (!request.pipeline().post().isEmpty()) {
                filters.postAfterRefusal(
                    request,
                    refusal.status(),
                    MultiMap.caseInsensitiveMultiMap().set("Content-Type", refusal.contentType()));
              }
              return refusal.status();
            });
  }

  private static void fail(HttpServerRequest in, Throwable e) {
    if (!in.isEnded()) {
      in.resume();
    }
    Failures.respond(in, e);
  }
}
