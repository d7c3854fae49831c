package io.okapigw.core.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import org.junit.jupiter.api.Test;

class CallersTest {

  private final Callers callers = new Callers();

  private static Context call(String traceId, String spanId) {
    return Context.root()
        .with(
            Span.wrap(
                SpanContext.create(
                    traceId, spanId, TraceFlags.getSampled(), TraceState.getDefault())));
  }

  private static final String TRACE_A = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String TRACE_B = "0af7651916cd43dd8448eb211c80319c";

  @Test
  void callInFlight_foundByItsRequestId_forgottenWhenItEnds() {
    Context handler = call(TRACE_A, "00f067aa0ba902b7");
    callers.sent("diku", "123456/circulation", handler);
    assertThat(callers.caller("diku", "123456/circulation")).isSameAs(handler);
    assertThat(callers.caller("diku", "654321/circulation")).isNull();
    callers.ended("diku", "123456/circulation");
    assertThat(callers.caller("diku", "123456/circulation")).isNull();
    assertThat(callers.size()).isZero();
  }

  @Test
  void callsOfOneTrace_theLatestIsTheCaller_untilAllEnded() {
    Context filter = call(TRACE_A, "00f067aa0ba902b7");
    Context handler = call(TRACE_A, "b7ad6b7169203331");
    callers.sent("diku", "123456/circulation", filter);
    callers.sent("diku", "123456/circulation", handler);
    assertThat(callers.caller("diku", "123456/circulation")).isSameAs(handler);
    callers.ended("diku", "123456/circulation");
    assertThat(callers.size()).isOne();
    callers.ended("diku", "123456/circulation");
    assertThat(callers.size()).isZero();
  }

  /** A request of another tenant is no call back, whatever id it sends. */
  @Test
  void callOfOneTenant_notTheCallerOfAnotherTenantsRequest() {
    Context handler = call(TRACE_A, "00f067aa0ba902b7");
    callers.sent("diku", "123456/circulation", handler);
    assertThat(callers.caller("other", "123456/circulation")).isNull();
    assertThat(callers.caller("diku", "123456/circulation")).isSameAs(handler);
    callers.sent("other", "123456/circulation", call(TRACE_B, "b7ad6b7169203331"));
    assertThat(callers.caller("diku", "123456/circulation")).isSameAs(handler);
    callers.ended("diku", "123456/circulation");
    callers.ended("other", "123456/circulation");
    assertThat(callers.size()).isZero();
  }
}
