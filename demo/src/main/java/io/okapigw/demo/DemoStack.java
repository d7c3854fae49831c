package io.okapigw.demo;

import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.core.Gateway;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.data.CirculationData;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** A whole library on one machine: the gateway in this Vert.x and the {@link Library} behind it. */
public final class DemoStack {

  private final DemoOptions options;
  private final Gateway gateway;
  private final Library library;

  private DemoStack(DemoOptions options, Gateway gateway, Library library) {
    this.options = options;
    this.gateway = gateway;
    this.library = library;
  }

  /** Starts everything and registers it; fails with the first problem. */
  public static Future<DemoStack> start(Vertx vertx, DemoOptions options) {
    return start(vertx, options, null);
  }

  /**
   * As {@link #start(Vertx, DemoOptions)}, the gateway's spans going to {@code otlpEndpoint} when
   * {@link DemoOptions#tracing()} (null: where the {@code OTEL_*} environment says).
   */
  public static Future<DemoStack> start(Vertx vertx, DemoOptions options, String otlpEndpoint) {
    GatewayOptions untraced =
        GatewayOptions.defaults(options.port())
            .withAuthCache(AuthCacheOptions.defaults().withEnabled(options.cache()));
    GatewayOptions gatewayOptions =
        options.tracing() ? untraced.withTracingTo(otlpEndpoint) : untraced;
    return Gateway.start(vertx, gatewayOptions)
        .compose(
            gateway ->
                Library.start(vertx, options, gateway.okapiUrl())
                    .map(library -> new DemoStack(options, gateway, library)));
  }

  /**
   * @return the gateway's base URL
   */
  public String gatewayUrl() {
    return gateway.okapiUrl();
  }

  public DemoOptions options() {
    return options;
  }

  /**
   * @return the generated library (barcodes, service point)
   */
  public CirculationData data() {
    return library.data();
  }

  /**
   * @return the simulated modules (for call counts)
   */
  public CirculationModules modules() {
    return library.modules();
  }

  /** Stops the modules, the auth module and the gateway. */
  public Future<Void> close() {
    return library.close().compose(v -> gateway.stop());
  }
}
