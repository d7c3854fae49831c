package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import java.util.Locale;

/**
 * Who decides on a tenant's requests: Okapi's auth filter (the tenant's enabled auth module), or
 * Keycloak as FOLIO's Eureka platform does. A tenant descriptor's {@code "auth"} field names it;
 * without one a tenant is an Okapi tenant.
 */
public enum AuthKind {
  /** The tenant's auth filter, as Okapi calls it. */
  OKAPI,
  /** Keycloak: the realm named as the tenant, its tokens and its UMA decisions. */
  EUREKA;

  /** The tenant descriptor's field naming it. */
  public static final String FIELD = "auth";

  /**
   * @param value the field's value, or null
   * @throws HttpError 400 for anything but {@code okapi} or {@code eureka}
   */
  static AuthKind of(Object value) {
    if (value == null) {
      return OKAPI;
    }
    if (value instanceof String s) {
      for (AuthKind kind : values()) {
        if (kind.json().equals(s)) {
          return kind;
        }
      }
    }
    throw HttpError.badRequest(
        "tenant: \"" + FIELD + "\" must be \"okapi\" or \"eureka\", was " + value);
  }

  /**
   * @return the name in a tenant descriptor
   */
  public String json() {
    return name().toLowerCase(Locale.ROOT);
  }
}
