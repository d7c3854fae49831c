package io.okapigw.perf.load;

import io.okapigw.perf.load.Comparison.Contender;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code checkout-checkin --gateway A --vs B}: the same workload through two running gateways that
 * have the same modules registered (ours and the Okapi a user runs today, say). For each user count
 * it logs the users in and warms up at A, then at B, measures them in interleaved slices (A, B, A,
 * B, ...) so that a change in the machine's other load hits both alike, then probes each (where it
 * has {@code /_/metrics}) and prints one table with ratios to B. With {@code --baseline C}, C is
 * measured in the same slices (A, B, C, A, ...) and the summary adds C ÷ B and A ÷ C. Only one
 * gateway is loaded at a time, and every check-out is checked in before a slice ends, so both may
 * share the same module instances and items.
 */
final class Versus {

  /** The mode names in the table: the gateway under test and the one it is measured against. */
  static final String GATEWAY = "gateway";

  static final String VS = "vs";

  static final String BASELINE = "baseline";

  private Versus() {}

  /**
   * @return every run's report, by user count, then gateway; the tables are printed
   */
  static Future<List<RunReport>> run(Vertx vertx, LoadOptions options, List<BarcodeRow> rows) {
    return InTurn.each(
            options.users(),
            users ->
                Comparison.sideBySide(
                        vertx,
                        contenders(options, users, rows),
                        options.duration(),
                        options.slices())
                    .onSuccess(reports -> VersusReport.print(options, reports)))
        .map(perUsers -> perUsers.stream().flatMap(List::stream).toList());
  }

  private static List<Contender> contenders(LoadOptions options, int users, List<BarcodeRow> rows) {
    List<Contender> contenders = new ArrayList<>();
    contenders.add(new Contender(options.plan(options.gateways(), users), rows, GATEWAY));
    contenders.add(new Contender(options.plan(options.vs(), users), rows, VS));
    if (!options.baseline().isEmpty()) {
      contenders.add(new Contender(options.plan(options.baseline(), users), rows, BASELINE));
    }
    return contenders;
  }
}
