package io.okapigw.core.timer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.okapigw.core.tenantinit.SystemCalls;
import io.okapigw.core.timer.TimerTable.TenantTimers;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a timer's call as Okapi 6.1.5 does: the handler's first method and path, an empty body, as
 * a system call (the tenant's auth filter asked first with the handler's module permissions, the
 * call carrying the token it answered). Counted in {@code okapi_timer_calls_total{tenant,
 * outcome}}: {@code success} (2xx), {@code refused} (any other status), {@code failed} (no answer,
 * no instance, or the auth module refused). A failure is logged, never retried: the next run comes
 * on schedule.
 */
final class TimerCalls {

  private static final Logger log = LoggerFactory.getLogger(TimerCalls.class);

  private final SystemCalls calls;
  private final MeterRegistry metrics;

  TimerCalls(SystemCalls calls, MeterRegistry metrics) {
    this.calls = calls;
    this.metrics = metrics;
  }

  /**
   * @return completes when the call has answered or failed; never fails
   */
  Future<Void> run(TenantTimers tenant, Timer timer) {
    return calls
        .call(
            tenant.tenant(),
            tenant.enabled(),
            timer.module(),
            timer.handler(),
            timer.method(),
            timer.path(),
            Buffer.buffer(),
            0)
        .transform(
            result -> {
              if (result.failed()) {
                log.warn(
                    "timer {} of tenant {}: {} {} to {} failed: {}",
                    timer.id(),
                    timer.tenant(),
                    timer.method(),
                    timer.path(),
                    timer.module().id(),
                    result.cause().getMessage());
                count(timer, "failed");
              } else if (result.result().status() / 100 != 2) {
                log.warn(
                    "timer {} of tenant {}: {} {} to {} answered {}: {}",
                    timer.id(),
                    timer.tenant(),
                    timer.method(),
                    timer.path(),
                    timer.module().id(),
                    result.result().status(),
                    SystemCalls.excerpt(result.result().body()));
                count(timer, "refused");
              } else {
                log.debug(
                    "timer {} of tenant {}: {} {} to {} answered {}",
                    timer.id(),
                    timer.tenant(),
                    timer.method(),
                    timer.path(),
                    timer.module().id(),
                    result.result().status());
                count(timer, "success");
              }
              return Future.<Void>succeededFuture();
            });
  }

  private void count(Timer timer, String outcome) {
    Counter.builder("okapi.timer.calls")
        .description("Calls made to modules' _timer handlers (once per cluster)")
        .tag("tenant", timer.tenant())
        .tag("outcome", outcome)
        .register(metrics)
        .increment();
  }
}
