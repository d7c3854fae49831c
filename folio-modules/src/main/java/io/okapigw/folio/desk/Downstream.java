package io.okapigw.folio.desk;

import static io.okapigw.folio.module.Call.delete;
import static io.okapigw.folio.module.Call.get;
import static io.okapigw.folio.module.Call.post;
import static io.okapigw.folio.module.Call.put;

import io.okapigw.folio.module.Call;

/** Every call mod-circulation makes to other modules, by interface and provider handler. */
final class Downstream {

  static final Call USERS = get("users", "/users");
  static final Call USER = get("users", "/users/{id}");
  static final Call GROUP = get("users", "/groups/{id}");
  static final Call PROXIES = get("users", "/proxiesfor");
  static final Call MANUAL_BLOCKS = get("feesfines", "/manualblocks");
  static final Call AUTOMATED_BLOCKS =
      get("automated-patron-blocks", "/automated-patron-blocks/{id}");
  static final Call ITEMS = get("item-storage", "/item-storage/items");
  static final Call ITEM_UPDATE = put("item-storage", "/item-storage/items/{id}");
  static final Call HOLDINGS = get("holdings-storage", "/holdings-storage/holdings/{id}");
  static final Call INSTANCE = get("instance-storage", "/instance-storage/instances/{id}");
  static final Call LOCATION = get("locations", "/locations/{id}");
  static final Call MATERIAL_TYPE = get("material-types", "/material-types/{id}");
  static final Call LOAN_TYPE = get("loan-types", "/loan-types/{id}");
  static final Call SERVICE_POINT = get("service-points", "/service-points/{id}");
  static final Call LOANS = get("loan-storage", "/loan-storage/loans");
  static final Call LOAN_CREATE = post("loan-storage", "/loan-storage/loans");
  static final Call LOAN_UPDATE = put("loan-storage", "/loan-storage/loans/{id}");
  static final Call REQUESTS = get("request-storage", "/request-storage/requests");
  static final Call LOAN_POLICY =
      get("loan-policy-storage", "/loan-policy-storage/loan-policies/{id}");
  static final Call REQUEST_POLICY =
      get("request-policy-storage", "/request-policy-storage/request-policies/{id}");
  static final Call NOTICE_POLICY =
      get(
          "patron-notice-policy-storage",
          "/patron-notice-policy-storage/patron-notice-policies/{id}");
  static final Call OVERDUE_FINE_POLICY = get("feesfines", "/overdue-fines-policies/{id}");
  static final Call LOST_ITEM_POLICY = get("feesfines", "/lost-item-fees-policies/{id}");
  static final Call ACCOUNTS = get("feesfines", "/accounts");
  static final Call LOCK = post("checkout-lock-storage", "/check-out-lock-storage");
  static final Call UNLOCK = delete("checkout-lock-storage", "/check-out-lock-storage/{id}");
  static final Call ACTION_SESSION =
      post(
          "patron-action-session-storage", "/patron-action-session-storage/patron-action-sessions");
  static final Call CHECK_IN_RECORD = post("check-in-storage", "/check-in-storage/check-ins");
  static final Call PATRON_NOTICE = post("patron-notice", "/patron-notice");
  static final Call PUBLISH = post("pubsub-publish", "/pubsub/publish");

  private Downstream() {}
}
