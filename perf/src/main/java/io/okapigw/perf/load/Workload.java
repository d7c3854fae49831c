package io.okapigw.perf.load;

import io.okapigw.perf.load.GatewayClient.Answer;
import io.okapigw.perf.load.Gateways.Lost;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The circulation desk's operations through the gateways: check-out and check-in by barcode, each
 * timed from sending the request to the last byte of the answer. An error is a failed request or a
 * non-2xx answer; it is counted, its message kept, and never fails the returned future. An
 * operation lost in flight (its gateway went away after it was sent) is not timed: it goes to the
 * {@link ErrorLog} by gateway, and the desk then checks the item in elsewhere and puts it aside
 * (see {@link #reconcile}).
 */
final class Workload {

  static final String CHECK_OUT = "/circulation/check-out-by-barcode";
  static final String CHECK_IN = "/circulation/check-in-by-barcode";
  static final int RECONCILE_TRIES = 5;

  /** The error kind of an operation that failed after it was sent (see {@link Lost}). */
  static final String LOST_KIND = "lost in flight";

  /** The error kind of a request that got no answer and was not lost in flight. */
  static final String NO_ANSWER_KIND = "no answer";

  /** How an operation ended. */
  enum Outcome {
    OK,
    /** Refused (a 4xx): not done. */
    FAILED,
    /**
     * Failed without saying whether it was done: a 5xx (a 504 after the module wrote the loan) or
     * no answer. Counted as an error, then reconciled as a lost one.
     */
    UNSURE,
    LOST
  }

  private static final Logger log = LoggerFactory.getLogger(Workload.class);

  private final Gateways gateways;
  private final ErrorLog errors;
  private final Function<VirtualUser, Future<Void>> login;

  /**
   * @param login logs a user in again when its token is refused with 401 (it expired: demo tokens
   *     live 10 minutes); the operation is then sent once more, timed as one
   */
  Workload(Gateways gateways, ErrorLog errors, Function<VirtualUser, Future<Void>> login) {
    this.gateways = gateways;
    this.errors = errors;
    this.login = login;
  }

  Future<Outcome> checkOut(VirtualUser user, BarcodeRow row, OperationStats stats) {
    return timed(
        "check-out " + row.itemBarcode() + " to " + row.userBarcode(),
        () -> post(user, CHECK_OUT, checkOutBody(row)),
        stats);
  }

  Future<Outcome> checkIn(VirtualUser user, BarcodeRow row, OperationStats stats) {
    return timed(
        "check-in " + row.itemBarcode(), () -> post(user, CHECK_IN, checkInBody(row)), stats);
  }

  /**
   * Checks the user's next item out and, if that worked, in again: an item a user took is always
   * returned, so the library ends as it began. After a loss or a failure that may have been half
   * done (a 5xx, no answer) the item is returned by {@link #reconcile}: else the item's next
   * check-out would fail too (422, already checked out), a failure the fault did not cause then.
   */
  Future<Void> pair(VirtualUser user, PhaseStats stats) {
    BarcodeRow row = user.nextRow();
    return checkOut(user, row, stats.checkOut())
        .compose(
            out ->
                switch (out) {
                  case OK ->
                      checkIn(user, row, stats.checkIn())
                          .compose(
                              in ->
                                  in == Outcome.LOST || in == Outcome.UNSURE
                                      ? reconcile(user, row)
                                      : Future.succeededFuture());
                  case LOST, UNSURE -> reconcile(user, row);
                  case FAILED -> Future.succeededFuture();
                });
  }

  /**
   * After a lost or unsure check-out or check-in: checks the item in (untimed), then leaves the
   * item out of the rest of the run. "Not checked out" (422) is as good as a check-in. A check-in
   * lost in turn (its connection was already dead: a gateway that just went down) is tried again,
   * at most {@value #RECONCILE_TRIES} times in all; checking in twice is harmless. The item is
   * retired because a lost operation may have been half done behind the gateway (a check-in that
   * closed the loan but never marked the item available), as it could in FOLIO.
   */
  Future<Void> reconcile(VirtualUser user, BarcodeRow row) {
    return reconcile(user, row, RECONCILE_TRIES).onComplete(v -> user.retire(row));
  }

  private Future<Void> reconcile(VirtualUser user, BarcodeRow row, int tries) {
    String what = "check-in " + row.itemBarcode() + " after a lost operation";
    return post(user, CHECK_IN, checkInBody(row))
        .transform(
            answer -> {
              if (answer.failed() && answer.cause() instanceof Lost && tries > 1) {
                return reconcile(user, row, tries - 1);
              }
              boolean ok =
                  answer.succeeded() && (answer.result().ok() || answer.result().status() == 422);
              if (!ok) {
                errors.add(what + ": " + describe(answer));
              }
              return Future.succeededFuture();
            });
  }

  private Future<Answer> post(VirtualUser user, String path, JsonObject body) {
    return gateways
        .post(user, path, body)
        .compose(
            answer ->
                answer.status() == 401 && user.token() != null
                    ? loginAgain(user).compose(v -> gateways.post(user, path, body))
                    : Future.succeededFuture(answer));
  }

  private Future<Void> loginAgain(VirtualUser user) {
    log.info("virtual user {}: token refused (401), logging in again", user.id());
    user.loggedIn(null);
    return login.apply(user);
  }

  private static JsonObject checkOutBody(BarcodeRow row) {
    return new JsonObject()
        .put("itemBarcode", row.itemBarcode())
        .put("userBarcode", row.userBarcode())
        .put("servicePointId", row.servicePointId());
  }

  private static JsonObject checkInBody(BarcodeRow row) {
    return new JsonObject()
        .put("itemBarcode", row.itemBarcode())
        .put("servicePointId", row.servicePointId());
  }

  private Future<Outcome> timed(String what, Supplier<Future<Answer>> call, OperationStats stats) {
    long start = System.nanoTime();
    return call.get()
        .transform(
            answer -> {
              if (answer.failed() && answer.cause() instanceof Lost lost) {
                errors.lost(lost.gateway(), what + ": " + lost.getMessage());
                stats.lost(LOST_KIND);
                return Future.succeededFuture(Outcome.LOST);
              }
              boolean ok = answer.succeeded() && answer.result().ok();
              stats.record(System.nanoTime() - start, ok ? null : kind(answer));
              if (ok) {
                return Future.succeededFuture(Outcome.OK);
              }
              errors.add(what + ": " + describe(answer));
              boolean refused = answer.succeeded() && answer.result().status() < 500;
              return Future.succeededFuture(refused ? Outcome.FAILED : Outcome.UNSURE);
            });
  }

  /**
   * @return the status of a non-2xx answer, else {@value #NO_ANSWER_KIND}
   */
  private static String kind(AsyncResult<Answer> answer) {
    return answer.succeeded() ? String.valueOf(answer.result().status()) : NO_ANSWER_KIND;
  }

  private static String describe(AsyncResult<Answer> answer) {
    return answer.succeeded()
        ? answer.result().describe()
        : "request failed: " + answer.cause().getMessage();
  }
}
