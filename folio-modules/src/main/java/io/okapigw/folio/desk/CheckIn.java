package io.okapigw.folio.desk;

import static io.okapigw.folio.desk.Downstream.ACCOUNTS;
import static io.okapigw.folio.desk.Downstream.CHECK_IN_RECORD;
import static io.okapigw.folio.desk.Downstream.HOLDINGS;
import static io.okapigw.folio.desk.Downstream.INSTANCE;
import static io.okapigw.folio.desk.Downstream.ITEM_UPDATE;
import static io.okapigw.folio.desk.Downstream.LOAN_POLICY;
import static io.okapigw.folio.desk.Downstream.LOAN_TYPE;
import static io.okapigw.folio.desk.Downstream.LOAN_UPDATE;
import static io.okapigw.folio.desk.Downstream.LOCATION;
import static io.okapigw.folio.desk.Downstream.LOST_ITEM_POLICY;
import static io.okapigw.folio.desk.Downstream.MATERIAL_TYPE;
import static io.okapigw.folio.desk.Downstream.NOTICE_POLICY;
import static io.okapigw.folio.desk.Downstream.OVERDUE_FINE_POLICY;
import static io.okapigw.folio.desk.Downstream.PATRON_NOTICE;
import static io.okapigw.folio.desk.Downstream.PUBLISH;
import static io.okapigw.folio.desk.Downstream.USER;
import static io.okapigw.folio.desk.Lookups.array;
import static io.okapigw.folio.desk.Lookups.byId;
import static io.okapigw.folio.desk.Parallel.into;
import static io.okapigw.folio.module.CqlQuery.quote;

import io.okapigw.folio.module.ModuleError;
import io.okapigw.folio.module.ModuleRequest;
import io.okapigw.folio.module.OkapiClient;
import io.okapigw.folio.module.OkapiHeaders;
import io.okapigw.folio.module.Reply;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.util.List;

/**
 * {@code POST /circulation/check-in-by-barcode}: {@value #CALLS} calls to other modules through the
 * gateway in six phases (concurrent within a phase): find item and service point (2); the item's
 * open loan, holdings, location, material type, loan type and request queue (6); instance,
 * borrower, notice policy rule, the loan's loan, overdue fine and lost item policies, the loan's
 * fee accounts (7); the notice policy (1); close the loan, mark the item Available (2, in order);
 * check-in record, check-in notice and ITEM_CHECKED_IN event (3). Then 200 with {@code {"loan",
 * "item"}}. An item without an open loan gets 422 (FOLIO would answer 200 without a loan; a 422
 * makes a load driver's mistakes visible).
 */
final class CheckIn {

  /** Calls to other modules per successful check-in. */
  static final int CALLS = 21;

  private final Clock clock;

  CheckIn(Clock clock) {
    this.clock = clock;
  }

  Future<Reply> handle(ModuleRequest request) {
    CheckInState s = CheckInState.from(request.json(), clock.instant());
    OkapiClient okapi = request.okapi();
    return Parallel.all(
            List.of(
                into(Lookups.itemByBarcode(okapi, s.itemBarcode), item -> s.item = item),
                into(Lookups.servicePoint(okapi, s.servicePointId), sp -> s.servicePoint = sp)))
        .compose(v -> loanAndItem(okapi, s))
        .compose(v -> requireLoan(s))
        .compose(v -> loanDetails(okapi, s))
        .compose(
            v ->
                Parallel.into(
                    byId(okapi, NOTICE_POLICY, s.noticePolicyId),
                    policy -> s.noticePolicy = policy))
        .compose(v -> closeLoan(okapi, s))
        .compose(v -> announce(okapi, s, request))
        .map(v -> Reply.ok(new JsonObject().put("loan", s.closedLoan).put("item", s.updatedItem)));
  }

  private static Future<Void> loanAndItem(OkapiClient okapi, CheckInState s) {
    String itemId = s.item.getString("id");
    return Parallel.all(
        List.of(
            into(
                Lookups.openLoans(okapi, "itemId", itemId, 1),
                page ->
                    s.loan =
                        array(page, "loans").isEmpty()
                            ? null
                            : array(page, "loans").getJsonObject(0)),
            into(byId(okapi, HOLDINGS, s.item.getString("holdingsRecordId")), h -> s.holdings = h),
            into(
                byId(okapi, LOCATION, s.item.getString("effectiveLocationId")),
                location -> s.location = location),
            into(
                byId(okapi, MATERIAL_TYPE, s.item.getString("materialTypeId")),
                type -> s.materialType = type),
            into(byId(okapi, LOAN_TYPE, Items.loanTypeId(s.item)), type -> s.loanType = type),
            into(
                Lookups.openRequests(okapi, itemId),
                page -> s.requests = array(page, "requests"))));
  }

  private static Future<Void> requireLoan(CheckInState s) {
    return s.loan != null
        ? Future.succeededFuture()
        : Future.failedFuture(
            ModuleError.unprocessable(
                "Item (barcode " + s.itemBarcode + ") is not checked out",
                "itemBarcode",
                s.itemBarcode));
  }

  private static Future<Void> loanDetails(OkapiClient okapi, CheckInState s) {
    String loanId = s.loanString("id");
    return Parallel.all(
        List.of(
            into(byId(okapi, INSTANCE, s.holdings.getString("instanceId")), i -> s.instance = i),
            into(byId(okapi, USER, s.loanString("userId")), user -> s.user = user),
            into(
                Lookups.rule(
                    okapi,
                    PolicyKind.NOTICE,
                    s.item,
                    s.loan.getString("patronGroupIdAtCheckout", "")),
                id -> s.noticePolicyId = id),
            into(byId(okapi, LOAN_POLICY, s.loanString("loanPolicyId")), p -> s.loanPolicy = p),
            into(
                byId(okapi, OVERDUE_FINE_POLICY, s.loanString("overdueFinePolicyId")),
                policy -> s.overdueFinePolicy = policy),
            into(
                byId(okapi, LOST_ITEM_POLICY, s.loanString("lostItemPolicyId")),
                policy -> s.lostItemPolicy = policy),
            into(
                okapi.json(ACCOUNTS, ACCOUNTS.query("loanId==" + quote(loanId), 100)),
                page -> s.accounts = array(page, "accounts"))));
  }

  private Future<Void> closeLoan(OkapiClient okapi, CheckInState s) {
    s.closedLoan = Records.closedLoan(s.loan, s.servicePointId, s.checkInDate);
    s.updatedItem = Items.withStatus(s.item, Items.AVAILABLE, s.checkInDate.toString());
    return okapi
        .json(LOAN_UPDATE, LOAN_UPDATE.path(s.loanString("id")), s.closedLoan)
        .compose(
            v -> okapi.json(ITEM_UPDATE, ITEM_UPDATE.path(s.item.getString("id")), s.updatedItem))
        .mapEmpty();
  }

  private static Future<Void> announce(OkapiClient okapi, CheckInState s, ModuleRequest request) {
    String userId = s.loanString("userId");
    String performer = request.header("X-Okapi-User-Id");
    JsonObject context =
        Records.noticeContext(s.closedLoan, s.itemBarcode, s.instance.getString("title"));
    JsonObject event =
        new JsonObject()
            .put("userId", userId)
            .put("loanId", s.closedLoan.getString("id"))
            .put("returnDate", s.closedLoan.getString("returnDate"));
    return Parallel.all(
        List.of(
            okapi.json(
                CHECK_IN_RECORD,
                CHECK_IN_RECORD.path(),
                Records.checkIn(
                    s.item,
                    s.servicePointId,
                    performer == null ? userId : performer,
                    s.checkInDate)),
            okapi.json(
                PATRON_NOTICE,
                PATRON_NOTICE.path(),
                Records.notice(s.noticePolicy, "Check in", userId, context)),
            okapi.json(
                PUBLISH,
                PUBLISH.path(),
                Records.event("ITEM_CHECKED_IN", event, request.header(OkapiHeaders.TENANT)))));
  }
}
