package io.okapigw.authtoken.lookup;

import io.okapigw.config.Setting;
import java.util.Locale;

/** Where the auth filter finds a token's user and its permissions ({@link #SETTING}). */
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

  /** Setting {@code user-lookup}. */
  public static final Setting<UserLookup> SETTING =
      Setting.choice("user-lookup", LOCAL)
          .about(
              "where the filter finds a token's user and permissions: `local` (this module's store,"
                  + " cached) or `gateway` (mod-users and mod-permissions through the gateway on"
                  + " every decision, as FOLIO's mod-authtoken)")
          .details(
              "For measuring: [authtoken](authtoken.md#deciding-at-folios-cost---user-lookup-gateway).");

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
