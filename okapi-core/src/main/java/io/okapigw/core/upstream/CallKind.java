package io.okapigw.core.upstream;

import java.util.Locale;

/** Why the gateway calls a module instance: each kind is counted (and later traced) apart. */
public enum CallKind {
  /** A client's request streamed to the handler module. */
  HANDLER,
  /** A pre or post filter (headers only). */
  FILTER,
  /** The tenant's auth filter, for a client's request or before a system call. */
  AUTH,
  /** A system interface: {@code _tenant}, {@code _tenantPermissions}, {@code _timer}. */
  SYSTEM,
  /** Okapi's health check of an instance ({@code /_/discovery/health}). */
  HEALTH,
  /**
   * Keycloak, for an Eureka tenant: its keys, a decision, a token, an admin read; and the calls
   * made on a request's behalf to learn what Keycloak does not say (mod-users-keycloak).
   */
  KEYCLOAK;

  /**
   * @return the kind as a metric tag: {@code handler}, {@code filter}, ...
   */
  public String tag() {
    return name().toLowerCase(Locale.ROOT);
  }
}
