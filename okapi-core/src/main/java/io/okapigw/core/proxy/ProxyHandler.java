package io.okapigw.core.proxy;

import io.micrometer.core.instrument.MeterRegistry;
import io.okapigw.cache.AuthDecision;
import io.okapigw.core.auth.AuthStage;
import io.okapigw.core.config.AuthParallel;
import io.okapigw.core.http.Failures;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.http.OkapiHeaders;
import io.okapigw.core.routing.Pipeline;
import io.okapigw.core.routing.RoutingTable;
import io.okapigw.core.routing.RoutingTables;
import io.okapigw.core.upstream.UpstreamClient;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;

/**
 * Every request that is not for the admin API: identify the tenant, match the tenant's routing
 * table, then run the pipeline as one flat chain: auth, pre filters, handler, post filters.
 */
public final class ProxyHandler implements Handler<HttpServerRequest> {

  private final RoutingTables tables;
  private final AuthStage auth;
  private final FilterCalls filters;
  private final Forwarder forwarder;
  private final String okapiUrl;
  private final RequestMetrics metrics;
  private final ParallelAuth parallel;

  /**
   * @param tables the compiled routing tables
   * @param upstream the client for module instances
   * @param auth decides on requests of tenants that have an auth filter
   * @param okapiUrl the gateway's URL as modules should call it (X-Okapi-Url)
   * @param registry where request timings go
   * @param authParallel whether safe requests run their handler during the auth call
   */
  public ProxyHandler(RoutingTables tables, UpstreamClient upstream, AuthStage auth,
      String okapiUrl, MeterRegistry registry, AuthParallel authParallel) {
    this.tables = tables;
    this.metrics = new RequestMetrics(registry);
    this.auth = auth;
    this.filters = new FilterCalls(upstream);
    this.forwarder = new Forwarder(upstream);
    this.parallel = authParallel == AuthParallel.SAFE ? new ParallelAuth(forwarder) : null;
    this.okapiUrl = okapiUrl;
  }

  @Override
  public void handle(HttpServerRequest in) {
    in.pause();
    long start = System.nanoTime();
    Future<ProxyRequest> routed = Future.succeededFuture(in).map(this::route);
    routed.compose(this::authorizeAndForward)
        .onFailure(e -> fail(in, e))
        .onComplete(done -> metrics.record(
            routed.succeeded() ? routed.result().identity().tenant() : "unknown",
            in.method().name(), in.response().getStatusCode(), start));
  }

  private ProxyRequest route(HttpServerRequest in) {
    ClientIdentity identity = ClientIdentity.from(in.headers());
    RoutingTable table = tables.forTenant(identity.tenant())
        .orElseThrow(() -> HttpError.badRequest("unknown tenant " + identity.tenant()));
    Pipeline pipeline = table.match(in.method().name(), in.path())
        .orElseThrow(() -> HttpError.notFound("no module serves " + in.method() + " "
            + in.path() + " for tenant " + identity.tenant()));
    return new ProxyRequest(in, identity, pipeline,
        RequestIds.next(in.getHeader(OkapiHeaders.REQUEST_ID), in.path()), okapiUrl, null);
  }

  private Future<Integer> authorizeAndForward(ProxyRequest request) {
    if (request.pipeline().auth().isEmpty()) {
      return filters.pre(request).compose(this::forward);
    }
    Future<AuthDecision> decision = auth.authorize(request.authRequest());
    if (parallel != null && !decision.isComplete() && ParallelAuth.eligible(request)) {
      return parallel.run(request, decision)
          .onSuccess(status -> filters.post(request, status));
    }
    return decision.map(request::withGrant).compose(filters::pre).compose(this::forward);
  }

  private Future<Integer> forward(ProxyRequest request) {
    return forwarder.forward(request).onSuccess(status -> filters.post(request, status));
  }

  private static void fail(HttpServerRequest in, Throwable e) {
    if (!in.isEnded()) {
      in.resume();
    }
    Failures.respond(in.response(), e);
  }
}
