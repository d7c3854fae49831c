package io.okapigw.core.config;

/**
 * {@code auth.parallel}: whether a request may run its handler while the auth module decides.
 * {@code off} (default): never. {@code safe}: GET and HEAD requests on a cache miss whose pipeline
 * needs nothing from the auth answer; the handler's response is held until the decision. Read as
 * {@link GatewaySettings#AUTH_PARALLEL}.
 */
public enum AuthParallel {
  OFF,
  SAFE
}
