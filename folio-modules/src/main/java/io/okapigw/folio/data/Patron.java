package io.okapigw.folio.data;

import io.vertx.core.json.JsonObject;

/**
 * A generated library patron (a mod-users user).
 *
 * @param id user id
 * @param barcode the patron's barcode, {@code P000000} style
 * @param username login name
 * @param firstName given name
 * @param lastName family name
 * @param patronGroupId id of the patron group
 * @param block whether the patron is blocked from borrowing
 */
public record Patron(
    String id,
    String barcode,
    String username,
    String firstName,
    String lastName,
    String patronGroupId,
    PatronBlock block) {

  /**
   * @return the user record as mod-users stores it
   */
  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("username", username)
        .put("barcode", barcode)
        .put("active", true)
        .put("type", "patron")
        .put("patronGroup", patronGroupId)
        .put(
            "personal",
            new JsonObject()
                .put("firstName", firstName)
                .put("lastName", lastName)
                .put("email", username + "@example.org")
                .put("preferredContactTypeId", "002"));
  }
}
