package io.okapigw.folio.storage;

import static io.okapigw.folio.module.StoreEndpoints.byId;
import static io.okapigw.folio.module.StoreEndpoints.collection;

import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.data.LoanPolicy;
import io.okapigw.folio.data.Policies;
import io.okapigw.folio.module.BoundedLog;
import io.okapigw.folio.module.Endpoint;
import io.okapigw.folio.module.JsonStore;
import io.okapigw.folio.module.ModuleError;
import io.okapigw.folio.module.ModuleSpec;
import io.okapigw.folio.module.Reply;
import io.okapigw.folio.module.Routes;
import io.okapigw.folio.module.TenantJobs;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.util.List;
import java.util.UUID;

/**
 * Simulated mod-circulation-storage: loans (one open loan per item, enforced atomically), requests
 * (none generated: every item's queue is empty), loan, request and patron notice policies, patron
 * action sessions, check-in records and check-out locks.
 */
public final class CirculationStorageModule {

  /** How many of the latest posted sessions and check-ins are kept. */
  public static final int KEEP_LATEST = 1000;

  private CirculationStorageModule() {}

  /**
   * @return the module serving the data's policies, with empty loan and request storage
   */
  public static ModuleSpec spec(CirculationData data) {
    Routes routes = new Routes();
    new LoanStorage().mount(routes);
    new CheckOutLocks(Clock.systemUTC()).mount(routes);
    JsonStore requests = new JsonStore("itemId", "requesterId");
    routes
        .on("GET", "/request-storage/requests", collection(requests, "requests"))
        .on("GET", "/request-storage/requests/{id}", byId(requests, "request"));
    policies(routes, data.policies());
    routes
        .on(
            "POST",
            "/patron-action-session-storage/patron-action-sessions",
            append(new BoundedLog(KEEP_LATEST), "patronId"))
        .on("POST", "/check-in-storage/check-ins", append(new BoundedLog(KEEP_LATEST), "itemId"));
    new TenantJobs(
            tenant ->
                "circulation storage of tenant "
                    + tenant
                    + ": "
                    + data.policies().loanPolicies().size()
                    + " loan policies, no loans")
        .mount(routes);
    return ModuleSpec.of("mod-circulation-storage", routes);
  }

  private static void policies(Routes routes, Policies policies) {
    readOnly(
        routes,
        "/loan-policy-storage/loan-policies",
        "loanPolicies",
        "loan policy",
        policies.loanPolicies().stream().map(LoanPolicy::toJson).toList());
    readOnly(
        routes,
        "/request-policy-storage/request-policies",
        "requestPolicies",
        "request policy",
        List.of(policies.requestPolicy().toRequestPolicyJson()));
    readOnly(
        routes,
        "/patron-notice-policy-storage/patron-notice-policies",
        "patronNoticePolicies",
        "patron notice policy",
        List.of(policies.noticePolicy().toJson()));
  }

  private static void readOnly(
      Routes routes, String path, String name, String what, List<JsonObject> records) {
    JsonStore store = new JsonStore();
    store.putAll(records);
    routes.on("GET", path, collection(store, name)).on("GET", path + "/{id}", byId(store, what));
  }

  /** POST of a write-only record: 422 without {@code requiredField}, else 201 with an id. */
  private static Endpoint append(BoundedLog log, String requiredField) {
    return request -> {
      JsonObject record = request.json();
      if (record.getValue(requiredField) == null) {
        throw ModuleError.unprocessable("must not be null", requiredField, null);
      }
      record.put("id", record.getString("id", UUID.randomUUID().toString()));
      log.add(record);
      return Future.succeededFuture(Reply.created(record));
    };
  }
}
