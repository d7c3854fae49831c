package io.okapigw.core.bulkhead;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.okapigw.core.bulkhead.TenantBulkhead.Permit;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A permit gives its place back once; without limits nothing is counted. */
class PermitTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void releasedTwice_givesItsPlaceBackOnce() {
    TenantBulkhead bulkhead =
        TenantBulkhead.create(
            new BulkheadOptions(1, 0, Map.of(), Map.of(), 25), registry, System::nanoTime);
    Permit first = bulkhead.admit("t", false);
    first.release();
    Permit second = bulkhead.admit("t", false);
    first.release();

    assertThat(inFlight()).isEqualTo(1.0);
    second.release();
    assertThat(inFlight()).isZero();
  }

  @Test
  void withoutLimits_nothingCounted() {
    TenantBulkhead off =
        TenantBulkhead.create(BulkheadOptions.defaults(), registry, System::nanoTime);

    assertThat(off.admit("t", false)).isSameAs(Permit.NONE);
    assertThat(registry.find("okapi.tenant.requests.in.flight").gauge()).isNull();
  }

  private double inFlight() {
    return registry.get("okapi.tenant.requests.in.flight").tag("tenant", "t").gauge().value();
  }
}
