package io.okapigw.core.config;

import java.util.Locale;

/**
 * {@code auth.parallel}: whether a request may run its handler while the auth module decides.
 * {@code off} (default): never. {@code safe}: GET and HEAD requests on a cache miss whose pipeline
 * needs nothing from the auth answer; the handler's response is held until the decision.
 */
public enum AuthParallel {
  OFF,
  SAFE;

  /**
   * @throws IllegalArgumentException naming the setting for anything but off or safe
   */
  public static AuthParallel parse(String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("auth.parallel must be off or safe, was '" + value + "'");
    }
  }
}
