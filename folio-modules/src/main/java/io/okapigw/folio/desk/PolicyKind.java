package io.okapigw.folio.desk;

import io.okapigw.folio.data.CirculationRules;
import io.okapigw.folio.module.Call;
import java.util.function.BiFunction;

/**
 * The five kinds of policy the circulation rules choose, each with its rules endpoint ({@code
 * /circulation/rules/<kind>-policy}), the property naming the chosen id, and the storage handler
 * the policy is read from.
 */
enum PolicyKind {
  LOAN(
      "loan-policy",
      "loanPolicyId",
      Downstream.LOAN_POLICY,
      (rules, materialType) -> rules.loanPolicyId(materialType)),
  REQUEST(
      "request-policy",
      "requestPolicyId",
      Downstream.REQUEST_POLICY,
      (rules, materialType) -> rules.requestPolicyId()),
  NOTICE(
      "notice-policy",
      "noticePolicyId",
      Downstream.NOTICE_POLICY,
      (rules, materialType) -> rules.noticePolicyId()),
  OVERDUE_FINE(
      "overdue-fine-policy",
      "overdueFinePolicyId",
      Downstream.OVERDUE_FINE_POLICY,
      (rules, materialType) -> rules.overdueFinePolicyId()),
  LOST_ITEM(
      "lost-item-policy",
      "lostItemPolicyId",
      Downstream.LOST_ITEM_POLICY,
      (rules, materialType) -> rules.lostItemPolicyId());

  private final String pathPattern;
  private final String idProperty;
  private final Call rulesCall;
  private final Call storageCall;
  private final BiFunction<CirculationRules, String, String> choose;

  PolicyKind(
      String name,
      String idProperty,
      Call storageCall,
      BiFunction<CirculationRules, String, String> choose) {
    this.pathPattern = "/circulation/rules/" + name;
    this.idProperty = idProperty;
    this.rulesCall = Call.get("circulation-rules", pathPattern);
    this.storageCall = storageCall;
    this.choose = choose;
  }

  /**
   * @return the rules endpoint's path pattern
   */
  String pathPattern() {
    return pathPattern;
  }

  /**
   * @return the property of the rules answer holding the policy id, e.g. loanPolicyId
   */
  String idProperty() {
    return idProperty;
  }

  /**
   * @return the call to the rules endpoint (mod-circulation's own, through the gateway)
   */
  Call rulesCall() {
    return rulesCall;
  }

  /**
   * @return the call reading the policy from storage
   */
  Call storageCall() {
    return storageCall;
  }

  /**
   * @return the id of the policy the rules choose for an item of this material type
   */
  String choose(CirculationRules rules, String materialTypeId) {
    return choose.apply(rules, materialTypeId);
  }
}
