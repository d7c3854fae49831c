package io.okapigw.folio.desk;

import static io.okapigw.folio.desk.Downstream.ACTION_SESSION;
import static io.okapigw.folio.desk.Downstream.AUTOMATED_BLOCKS;
import static io.okapigw.folio.desk.Downstream.GROUP;
import static io.okapigw.folio.desk.Downstream.HOLDINGS;
import static io.okapigw.folio.desk.Downstream.INSTANCE;
import static io.okapigw.folio.desk.Downstream.ITEM_UPDATE;
import static io.okapigw.folio.desk.Downstream.LOAN_CREATE;
import static io.okapigw.folio.desk.Downstream.LOAN_TYPE;
import static io.okapigw.folio.desk.Downstream.LOCATION;
import static io.okapigw.folio.desk.Downstream.LOCK;
import static io.okapigw.folio.desk.Downstream.MANUAL_BLOCKS;
import static io.okapigw.folio.desk.Downstream.MATERIAL_TYPE;
import static io.okapigw.folio.desk.Downstream.PATRON_NOTICE;
import static io.okapigw.folio.desk.Downstream.PROXIES;
import static io.okapigw.folio.desk.Downstream.PUBLISH;
import static io.okapigw.folio.desk.Downstream.UNLOCK;
import static io.okapigw.folio.desk.Lookups.array;
import static io.okapigw.folio.desk.Lookups.byId;
import static io.okapigw.folio.desk.Lookups.total;
import static io.okapigw.folio.desk.Parallel.into;
import static io.okapigw.folio.module.CqlQuery.quote;

import io.okapigw.folio.module.Answer;
import io.okapigw.folio.module.ModuleError;
import io.okapigw.folio.module.ModuleRequest;
import io.okapigw.folio.module.OkapiClient;
import io.okapigw.folio.module.OkapiHeaders;
import io.okapigw.folio.module.Reply;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /circulation/check-out-by-barcode}: {@value #CALLS} calls to other modules through
 * the gateway in six phases (concurrent within a phase): find user, item and service point (3);
 * patron group, proxies, manual and automated blocks, the patron's open loans, holdings, effective
 * and permanent location, material type, loan type, the item's open loans and request queue (12);
 * instance and the five policy rules (6); the five policies (5); lock, create loan, mark item
 * checked out, unlock (4, in order); patron action session, check-out notice and ITEM_CHECKED_OUT
 * event (3). Then 201 with the loan.
 */
final class CheckOut {

  /** Calls to other modules per successful check-out. */
  static final int CALLS = 33;

  private static final Logger log = LoggerFactory.getLogger(CheckOut.class);

  private final Clock clock;

  CheckOut(Clock clock) {
    this.clock = clock;
  }

  Future<Reply> handle(ModuleRequest request) {
    CheckOutState s = CheckOutState.from(request.json());
    OkapiClient okapi = request.okapi();
    return find(okapi, s)
        .compose(v -> patronAndItem(okapi, s))
        .compose(v -> CheckOutChecks.patronAndItem(s))
        .compose(v -> instanceAndRules(okapi, s))
        .compose(v -> policies(okapi, s))
        .compose(v -> CheckOutChecks.loanPolicy(s))
        .compose(v -> lockAndLoan(okapi, s))
        .compose(v -> announce(okapi, s, request.header(OkapiHeaders.TENANT)))
        .map(v -> Reply.created(Records.checkOutReply(s)));
  }

  private static Future<Void> find(OkapiClient okapi, CheckOutState s) {
    return Parallel.all(
        List.of(
            into(Lookups.userByBarcode(okapi, s.userBarcode), user -> s.user = user),
            into(Lookups.itemByBarcode(okapi, s.itemBarcode), item -> s.item = item),
            into(Lookups.servicePoint(okapi, s.servicePointId), sp -> s.servicePoint = sp)));
  }

  private static Future<Void> patronAndItem(OkapiClient okapi, CheckOutState s) {
    String userId = s.userId();
    String itemId = s.itemId();
    return Parallel.all(
        List.of(
            into(byId(okapi, GROUP, s.user.getString("patronGroup")), g -> s.patronGroup = g),
            into(
                okapi.json(PROXIES, PROXIES.query("proxyUserId==" + quote(userId), 10)),
                page -> s.proxies = total(page)),
            into(
                okapi.json(MANUAL_BLOCKS, MANUAL_BLOCKS.query("userId==" + quote(userId), 100)),
                page -> s.manualBlocks = array(page, "manualblocks")),
            into(
                byId(okapi, AUTOMATED_BLOCKS, userId),
                blocks -> s.automatedBlocks = array(blocks, "automatedPatronBlocks")),
            into(Lookups.openLoans(okapi, "userId", userId, 0), p -> s.userOpenLoans = total(p)),
            into(byId(okapi, HOLDINGS, s.item.getString("holdingsRecordId")), h -> s.holdings = h),
            into(
                byId(okapi, LOCATION, s.item.getString("effectiveLocationId")),
                location -> s.effectiveLocation = location),
            into(
                byId(okapi, LOCATION, Items.permanentLocationId(s.item)),
                location -> s.permanentLocation = location),
            into(
                byId(okapi, MATERIAL_TYPE, s.item.getString("materialTypeId")),
                type -> s.materialType = type),
            into(byId(okapi, LOAN_TYPE, Items.loanTypeId(s.item)), type -> s.loanType = type),
            into(Lookups.openLoans(okapi, "itemId", itemId, 1), p -> s.itemOpenLoans = total(p)),
            into(
                Lookups.openRequests(okapi, itemId),
                page -> s.requests = array(page, "requests"))));
  }

  private static Future<Void> instanceAndRules(OkapiClient okapi, CheckOutState s) {
    List<Future<?>> calls = new ArrayList<>();
    calls.add(
        into(
            byId(okapi, INSTANCE, s.holdings.getString("instanceId")),
            instance -> s.instance = instance));
    for (PolicyKind kind : PolicyKind.values()) {
      calls.add(
          into(
              Lookups.rule(okapi, kind, s.item, s.user.getString("patronGroup")),
              id -> s.policyIds.put(kind, id)));
    }
    return Parallel.all(calls);
  }

  private static Future<Void> policies(OkapiClient okapi, CheckOutState s) {
    List<Future<?>> calls = new ArrayList<>();
    for (Map.Entry<PolicyKind, String> id : s.policyIds.entrySet()) {
      calls.add(
          into(
              byId(okapi, id.getKey().storageCall(), id.getValue()),
              policy -> s.policies.put(id.getKey(), policy)));
    }
    return Parallel.all(calls);
  }

  private Future<Void> lockAndLoan(OkapiClient okapi, CheckOutState s) {
    JsonObject lock = new JsonObject().put("userId", s.userId()).put("ttlMs", 3000);
    return okapi
        .exchange(LOCK, LOCK.path(), lock)
        .map(answer -> lockId(answer, s))
        .compose(lockId -> loanAndItem(okapi, s).eventually(() -> unlock(okapi, lockId)));
  }

  private Future<Void> loanAndItem(OkapiClient okapi, CheckOutState s) {
    return okapi
        .exchange(LOAN_CREATE, LOAN_CREATE.path(), Records.newLoan(s, clock.instant()))
        .map(answer -> createdLoan(answer, s))
        .compose(
            loan ->
                okapi.json(
                    ITEM_UPDATE,
                    ITEM_UPDATE.path(s.itemId()),
                    Items.withStatus(s.item, Items.CHECKED_OUT, loan.getString("loanDate"))))
        .mapEmpty();
  }

  private static String lockId(Answer answer, CheckOutState s) {
    if (answer.status() == 503) {
      throw ModuleError.unprocessable(
          "Unable to acquire a check-out lock for patron (barcode "
              + s.userBarcode
              + "): another check-out for this patron is in progress",
          "userBarcode",
          s.userBarcode);
    }
    if (!answer.ok()) {
      throw answer.unexpected();
    }
    return Lookups.string(answer.json(), "id", LOCK);
  }

  /** Loan storage refuses a second open loan for an item: someone checked it out meanwhile. */
  private static JsonObject createdLoan(Answer answer, CheckOutState s) {
    if (answer.status() == 422 && answer.message().contains("open loan")) {
      throw new ModuleError(422, List.of(CheckOutChecks.alreadyCheckedOut(s)));
    }
    if (!answer.ok()) {
      throw answer.unexpected();
    }
    s.loan = answer.json();
    return s.loan;
  }

  private static Future<Void> unlock(OkapiClient okapi, String lockId) {
    return okapi
        .json(UNLOCK, UNLOCK.path(lockId))
        .<Void>mapEmpty()
        .recover(
            e -> {
              log.warn(
                  "check-out lock {} not released (it expires by itself): {}",
                  lockId,
                  e.getMessage());
              return Future.succeededFuture();
            });
  }

  private static Future<Void> announce(OkapiClient okapi, CheckOutState s, String tenant) {
    JsonObject context =
        Records.noticeContext(s.loan, s.itemBarcode, s.instance.getString("title"));
    JsonObject event =
        new JsonObject()
            .put("userId", s.userId())
            .put("loanId", s.loan.getString("id"))
            .put("dueDate", s.loan.getString("dueDate"));
    return Parallel.all(
        List.of(
            okapi.json(
                ACTION_SESSION,
                ACTION_SESSION.path(),
                Records.session(s.userId(), s.loan.getString("id"), "Check-out")),
            okapi.json(
                PATRON_NOTICE,
                PATRON_NOTICE.path(),
                Records.notice(
                    s.policies.get(PolicyKind.NOTICE), "Check out", s.userId(), context)),
            okapi.json(PUBLISH, PUBLISH.path(), Records.event("ITEM_CHECKED_OUT", event, tenant))));
  }
}
