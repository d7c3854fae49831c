package io.okapigw.folio.data;

import java.util.Map;

/**
 * The generated circulation rules, already "compiled": the loan policy depends on the item's
 * material type (fallback: the first loan policy); request, notice, overdue fine and lost item
 * policies are the same for everything. As text they would read {@code priority: t, s, c, b, a, m,
 * g / fallback-policy: l <first> r <request> n <notice> ... / m <material type>: l <loan policy>}.
 */
public final class CirculationRules {

  private final Policies policies;
  private final Map<String, String> loanPolicyByMaterialType;

  CirculationRules(Policies policies, Map<String, String> loanPolicyByMaterialType) {
    this.policies = policies;
    this.loanPolicyByMaterialType = Map.copyOf(loanPolicyByMaterialType);
  }

  /**
   * @param materialTypeId the item's material type ({@code item_type_id})
   * @return the loan policy id the rules choose
   */
  public String loanPolicyId(String materialTypeId) {
    return loanPolicyByMaterialType.getOrDefault(
        materialTypeId, policies.loanPolicies().get(0).id());
  }

  /**
   * @return the request policy id the rules choose (the same for every item and patron)
   */
  public String requestPolicyId() {
    return policies.requestPolicy().id();
  }

  /**
   * @return the notice policy id the rules choose
   */
  public String noticePolicyId() {
    return policies.noticePolicy().id();
  }

  /**
   * @return the overdue fine policy id the rules choose
   */
  public String overdueFinePolicyId() {
    return policies.overdueFinePolicy().id();
  }

  /**
   * @return the lost item fee policy id the rules choose
   */
  public String lostItemPolicyId() {
    return policies.lostItemPolicy().id();
  }
}
