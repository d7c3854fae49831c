package io.okapigw.folio.data;

import io.vertx.core.json.JsonObject;

/**
 * A generated rolling loan policy.
 *
 * @param id policy id
 * @param name display name
 * @param duration loan period length
 * @param intervalId loan period unit: {@code Days} or {@code Weeks}
 * @param itemLimit most open loans a patron may have under this policy
 */
public record LoanPolicy(String id, String name, int duration, String intervalId, int itemLimit) {

  /**
   * @return the policy as mod-circulation-storage stores it
   */
  public JsonObject toJson() {
    JsonObject period = new JsonObject().put("duration", duration).put("intervalId", intervalId);
    return new JsonObject()
        .put("id", id)
        .put("name", name)
        .put("loanable", true)
        .put("renewable", true)
        .put(
            "loansPolicy",
            new JsonObject()
                .put("profileId", "Rolling")
                .put("period", period)
                .put("closedLibraryDueDateManagementId", "CURRENT_DUE_DATE")
                .put("itemLimit", itemLimit))
        .put(
            "renewalsPolicy",
            new JsonObject()
                .put("unlimited", false)
                .put("numberAllowed", 3)
                .put("renewFromId", "CURRENT_DUE_DATE"));
  }

  /**
   * @return the loan period in days
   */
  public int periodDays() {
    return "Weeks".equals(intervalId) ? duration * 7 : duration;
  }
}
