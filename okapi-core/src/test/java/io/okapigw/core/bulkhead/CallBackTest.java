package io.okapigw.core.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.core.bulkhead.TenantBulkhead.Permit;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which requests are a module's call back: only those carrying an id sent and still in flight. */
class CallBackTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final TenantBulkhead bulkhead =
      TenantBulkhead.create(
          new BulkheadOptions(1, 0, Map.of(), Map.of()), registry, System::nanoTime);

  @Test
  void callBacks_ofCallBacks_admittedWhileTheFirstIsInFlight() {
    Permit client = bulkhead.admit("t", null, "1/a");
    Permit callBack = bulkhead.admit("t", "1/a", "1/a;2/b");
    Permit nested = bulkhead.admit("t", "1/a;2/b", "1/a;2/b;3/c");

    assertThatThrownBy(() -> bulkhead.admit("t", null, "4/a")).isInstanceOf(TooBusy.class);
    assertThat(inFlight()).isEqualTo(1.0);
    nested.release();
    callBack.release();
    client.release();
    assertThat(inFlight()).isZero();
  }

  @Test
  void anIdNoLongerInFlight_isAClientsAgain() {
    bulkhead.admit("t", null, "1/a").release();
    Permit holder = bulkhead.admit("t", null, "2/a");

    assertThatThrownBy(() -> bulkhead.admit("t", "1/a", "1/a;3/b")).isInstanceOf(TooBusy.class);
    holder.release();
  }

  @Test
  void releasedTwice_givesItsPlaceBackOnce() {
    Permit first = bulkhead.admit("t", null, "1/a");
    first.release();
    Permit second = bulkhead.admit("t", null, "2/a");
    first.release();

    assertThat(inFlight()).isEqualTo(1.0);
    second.release();
  }

  @Test
  void withoutLimits_nothingCounted() {
    TenantBulkhead off =
        TenantBulkhead.create(BulkheadOptions.defaults(), registry, System::nanoTime);

    assertThat(off.admit("t", null, "1/a")).isSameAs(Permit.NONE);
    assertThat(registry.find("okapi.tenant.requests.in.flight").gauge()).isNull();
  }

  private double inFlight() {
    return registry.get("okapi.tenant.requests.in.flight").tag("tenant", "t").gauge().value();
  }
}
