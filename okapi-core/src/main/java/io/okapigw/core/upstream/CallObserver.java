package io.okapigw.core.upstream;

/**
 * Told of every call the {@link ModuleClient} makes, on the call's event loop: where the call
 * metrics are counted ({@link CallMetrics}), and where tracing spans and the outcomes that
 * health-aware instance choice learns from plug in. Implementations must be cheap and never throw:
 * they run on the request path.
 */
public interface CallObserver {

  /** Observes nothing. */
  CallObserver NONE = new CallObserver() {};

  /**
   * The request to the chosen instance is open, its headers not yet sent: a tracing span starts
   * here and may add its headers to {@code call.headers()}.
   */
  default void opened(ModuleCall call) {}

  /** The instance answered with a head of {@code status} (a 1xx one is a bad answer). */
  default void answered(ModuleCall call, int status) {}

  /**
   * The call failed before an answer's head: no instance, refused, reset, timed out.
   *
   * @param failure as it happened (see {@link CallFailures#isTimeout})
   */
  default void failed(ModuleCall call, Throwable failure) {}
}
