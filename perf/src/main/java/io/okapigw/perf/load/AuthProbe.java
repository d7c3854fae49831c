package io.okapigw.perf.load;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Attributes auth calls to each operation. The gateway counts auth calls per tenant, not per
 * request, so a mixed run only gives calls per operation overall. After the measured run each round
 * therefore makes every user check out its next item at the same time (nothing else running), reads
 * the counter, then makes them check those items in, and reads it again: the two deltas divided by
 * the operations of each half are auth calls per check-out and per check-in in steady state.
 */
final class AuthProbe {

  /**
   * The probe's totals.
   *
   * @param checkOuts check-outs made
   * @param checkOutCalls auth calls during them
   * @param checkIns check-ins made (of the items checked out)
   * @param checkInCalls auth calls during them
   */
  record Result(long checkOuts, double checkOutCalls, long checkIns, double checkInCalls) {

    static final Result NONE = new Result(0, 0, 0, 0);

    Result plus(Result r) {
      return new Result(
          checkOuts + r.checkOuts,
          checkOutCalls + r.checkOutCalls,
          checkIns + r.checkIns,
          checkInCalls + r.checkInCalls);
    }

    /**
     * @return auth calls per check-out, NaN without check-outs
     */
    double perCheckOut() {
      return checkOuts == 0 ? Double.NaN : checkOutCalls / checkOuts;
    }

    /**
     * @return auth calls per check-in, NaN without check-ins
     */
    double perCheckIn() {
      return checkIns == 0 ? Double.NaN : checkInCalls / checkIns;
    }
  }

  private record Measured<T>(T result, double authCalls) {}

  private record Held(VirtualUser user, BarcodeRow row) {}

  private final Workload workload;
  private final Gateways gateways;
  private final List<VirtualUser> users;
  private final OperationBudget budget;
  private final PhaseStats stats;

  AuthProbe(
      Workload workload,
      Gateways gateways,
      List<VirtualUser> users,
      OperationBudget budget,
      PhaseStats stats) {
    this.workload = workload;
    this.gateways = gateways;
    this.users = users;
    this.budget = budget;
    this.stats = stats;
  }

  /**
   * @return the totals of {@code rounds} rounds, one after the other
   */
  Future<Result> run(int rounds) {
    Future<Result> chain = Future.succeededFuture(Result.NONE);
    for (int r = 0; r < rounds; r++) {
      chain = chain.compose(sum -> round().map(sum::plus));
    }
    return chain;
  }

  private Future<Result> round() {
    List<Held> out =
        users.stream().filter(u -> budget.take(2)).map(u -> new Held(u, u.nextRow())).toList();
    return measure(() -> checkOutAll(out))
        .compose(
            checkedOut ->
                measure(() -> checkInAll(checkedOut.result()))
                    .map(
                        checkedIn ->
                            new Result(
                                out.size(),
                                checkedOut.authCalls(),
                                checkedOut.result().size(),
                                checkedIn.authCalls())));
  }

  /**
   * @return those checked out
   */
  private Future<List<Held>> checkOutAll(List<Held> held) {
    List<Future<Workload.Outcome>> outs =
        held.stream().map(h -> workload.checkOut(h.user(), h.row(), stats.checkOut())).toList();
    return Future.all(outs)
        .map(
            v -> {
              List<Held> ok = new ArrayList<>();
              for (int i = 0; i < held.size(); i++) {
                if (outs.get(i).result() == Workload.Outcome.OK) {
                  ok.add(held.get(i));
                }
              }
              return ok;
            });
  }

  private Future<Void> checkInAll(List<Held> held) {
    return Future.all(
            held.stream().map(h -> workload.checkIn(h.user(), h.row(), stats.checkIn())).toList())
        .mapEmpty();
  }

  private <T> Future<Measured<T>> measure(Supplier<Future<T>> work) {
    return gateways
        .read()
        .compose(
            before ->
                work.get()
                    .compose(
                        result ->
                            gateways
                                .read()
                                .map(
                                    after ->
                                        new Measured<>(result, after.authCallsSince(before)))));
  }
}
