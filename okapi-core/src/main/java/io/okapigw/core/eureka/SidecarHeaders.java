package io.okapigw.core.eureka;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;

/**
 * How the headers an Eureka tenant's module gets differ from an Okapi tenant's, as
 * folio-module-sidecar's ingress writes them ({@code RequestForwardingService.filterHeaders},
 * {@code SidecarSignatureFilter}): no {@code User-Agent} (mgr-tenant-entitlements' client's broke
 * mod-circulation's calls to mod-pubsub) and no {@code Priority} (CVE-2025-31650); none of Okapi's
 * {@code X-Okapi-request-timestamp}, {@code -method}, {@code -ip} and {@code
 * X-Okapi-Match-Path-Pattern}; and {@code X-Okapi-Sidecar-Signature}, one value per process (the
 * Base64 SHA-256 of its start's milliseconds, as the sidecar's), never taken from a client and
 * never passed back to one. The gateway never trusts it: a module's call back is recognised by its
 * call's key, not by a signature a module may echo.
 */
public final class SidecarHeaders {

  /** The sidecar's signature header ({@code SidecarSignatureService.SIGNATURE_HEADER}). */
  public static final String SIGNATURE = "X-Okapi-Sidecar-Signature";

  /** The client's headers the sidecar removes before it calls the module. */
  public static final List<String> NOT_TO_MODULES = List.of("User-Agent", "Priority", SIGNATURE);

  private static final String VALUE = generate(System.currentTimeMillis());

  private SidecarHeaders() {}

  /**
   * @return this process's signature
   */
  public static String signature() {
    return VALUE;
  }

  static String generate(long millis) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(String.valueOf(millis).getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
