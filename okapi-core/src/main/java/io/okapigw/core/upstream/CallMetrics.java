package io.okapigw.core.upstream;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code okapi_module_calls_seconds{kind, outcome}}: every call to a module instance, from its
 * opening to the head of the answer. {@code kind}: {@code handler}, {@code filter}, {@code auth},
 * {@code system}, {@code health}; {@code outcome}: the status class ({@code 2xx}, ...), {@code
 * timeout} or {@code unreachable} (no instance, refused, reset). Tags are bounded: no module id,
 * tenant, path or user.
 */
public final class CallMetrics implements CallObserver {

  private static final List<String> OUTCOMES =
      List.of("1xx", "2xx", "3xx", "4xx", "5xx", "timeout", "unreachable");
  private static final int TIMEOUT = 5;
  private static final int UNREACHABLE = 6;

  private final MeterRegistry registry;

  /**
   * Registered on first use: one array read per call, no Micrometer lookup (a race registers a
   * meter twice: Micrometer hands back the one it has).
   */
  private final Timer[][] timers = new Timer[CallKind.values().length][OUTCOMES.size()];

  /**
   * @param registry where the timers are registered (on first use)
   */
  public CallMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void answered(ModuleCall call, int status) {
    record(call, Math.min(Math.max(status / 100 - 1, 0), 4));
  }

  @Override
  public void failed(ModuleCall call, Throwable failure) {
    record(call, CallFailures.isTimeout(failure) ? TIMEOUT : UNREACHABLE);
  }

  private void record(ModuleCall call, int outcome) {
    Timer timer = timers[call.kind().ordinal()][outcome];
    if (timer == null) {
      timer =
          Timer.builder("okapi.module.calls")
              .description("Calls to module instances, from opening to the answer's head")
              .tag("kind", call.kind().tag())
              .tag("outcome", OUTCOMES.get(outcome))
              .register(registry);
      timers[call.kind().ordinal()][outcome] = timer;
    }
    timer.record(System.nanoTime() - call.startNanos(), TimeUnit.NANOSECONDS);
  }
}
