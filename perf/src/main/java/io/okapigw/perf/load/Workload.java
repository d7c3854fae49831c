package io.okapigw.perf.load;

import io.okapigw.perf.load.GatewayClient.Answer;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;

/**
 * The circulation desk's operations through the gateway: check-out and check-in by barcode, each
 * timed from sending the request to the last byte of the answer. An error is a failed request
 * or a non-2xx answer; it is counted, its message kept, and never fails the returned future.
 */
final class Workload {

  static final String CHECK_OUT = "/circulation/check-out-by-barcode";
  static final String CHECK_IN = "/circulation/check-in-by-barcode";

  private final GatewayClient client;
  private final ErrorLog errors;

  Workload(GatewayClient client, ErrorLog errors) {
    this.client = client;
    this.errors = errors;
  }

  /** @return whether the check-out succeeded */
  Future<Boolean> checkOut(VirtualUser user, BarcodeRow row, OperationStats stats) {
    JsonObject body = new JsonObject().put("itemBarcode", row.itemBarcode())
        .put("userBarcode", row.userBarcode()).put("servicePointId", row.servicePointId());
    return timed("check-out " + row.itemBarcode() + " to " + row.userBarcode(),
        () -> client.post(CHECK_OUT, body, user.token()), stats);
  }

  /** @return whether the check-in succeeded */
  Future<Boolean> checkIn(VirtualUser user, BarcodeRow row, OperationStats stats) {
    JsonObject body = new JsonObject().put("itemBarcode", row.itemBarcode())
        .put("servicePointId", row.servicePointId());
    return timed("check-in " + row.itemBarcode(), () -> client.post(CHECK_IN, body,
        user.token()), stats);
  }

  /**
   * Checks the user's next item out and, if that worked, in again: an item a user took is
   * always returned, so the library ends as it began.
   */
  Future<Void> pair(VirtualUser user, PhaseStats stats) {
    BarcodeRow row = user.nextRow();
    return checkOut(user, row, stats.checkOut())
        .compose(out -> out ? checkIn(user, row, stats.checkIn()).<Void>mapEmpty()
            : Future.<Void>succeededFuture());
  }

  private Future<Boolean> timed(String what, Supplier<Future<Answer>> call,
      OperationStats stats) {
    long start = System.nanoTime();
    return call.get().transform(answer -> {
      boolean ok = answer.succeeded() && answer.result().ok();
      stats.record(System.nanoTime() - start, ok);
      if (!ok) {
        errors.add(what + ": " + describe(answer));
      }
      return Future.succeededFuture(ok);
    });
  }

  private static String describe(AsyncResult<Answer> answer) {
    return answer.succeeded() ? answer.result().describe()
        : "request failed: " + answer.cause().getMessage();
  }
}
