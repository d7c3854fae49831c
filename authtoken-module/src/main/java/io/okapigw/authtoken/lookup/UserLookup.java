package io.okapigw.authtoken.lookup;

import java.util.Locale;

/** Setting {@code user-lookup}: where the auth filter finds a token's user and its permissions. */
public enum UserLookup {
  /** This module's store (users cached until they change): a decision costs microseconds. */
  LOCAL,
  /**
   * As FOLIO's mod-authtoken: on every filter call with a user, {@code GET /users/{id}} (mod-users:
   * active?), {@code GET /perms/users?query=userId==ID} and {@code GET
   * /perms/users/{permUserId}/permissions?expanded=true} (mod-permissions), through the gateway at
   * the call's {@code X-Okapi-Url}, uncached: a decision costs three calls through the gateway.
   */
  GATEWAY;

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
