package io.okapigw.folio.desk;

import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.module.ModuleSpec;
import io.okapigw.folio.module.Routes;
import java.time.Clock;

/**
 * Simulated mod-circulation: check-out and check-in by barcode (each a fixed number of calls to
 * other modules through the gateway with its module token, see {@link #CHECK_OUT_CALLS} and {@link
 * #CHECK_IN_CALLS}), and the circulation rules endpoints those operations call.
 */
public final class CirculationModule {

  /** Module-to-module calls one successful check-out makes. */
  public static final int CHECK_OUT_CALLS = CheckOut.CALLS;

  /** Module-to-module calls one successful check-in makes. */
  public static final int CHECK_IN_CALLS = CheckIn.CALLS;

  private CirculationModule() {}

  /**
   * @param data the library, for its circulation rules
   * @param clock the clock giving loan, due and return dates
   * @return the module
   */
  public static ModuleSpec spec(CirculationData data, Clock clock) {
    CheckOut checkOut = new CheckOut(clock);
    CheckIn checkIn = new CheckIn(clock);
    Routes routes =
        new Routes()
            .on("POST", "/circulation/check-out-by-barcode", checkOut::handle)
            .on("POST", "/circulation/check-in-by-barcode", checkIn::handle);
    RulesEndpoints.mount(routes, data.rules());
    return ModuleSpec.of("mod-circulation", routes);
  }
}
