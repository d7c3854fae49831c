package io.okapigw.core.callback;

import io.okapigw.core.http.RequestIds;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * A request this node proxies, from routing until it is answered: its tenant and the {@code
 * X-Okapi-Request-Id} it is sent to its modules with, which carries its key ({@link CallBacks}).
 */
public final class Call {

  private final CallBacks calls;
  private final String tenant;
  private final String module;
  private final String handle;
  private final byte[] secret;
  private final String requestId;

  Call(CallBacks calls, String tenant, String module, String handle, String key, String requestId) {
    this.calls = calls;
    this.tenant = tenant;
    this.module = module;
    this.handle = handle;
    this.secret = secretOf(key);
    this.requestId = requestId;
  }

  /**
   * @return the tenant the call is made for
   */
  public String tenant() {
    return tenant;
  }

  /**
   * @return the module whose call backs this call's are, or null if that cannot be told (a filter
   *     gets the call's key too)
   */
  public String module() {
    return module;
  }

  /**
   * @return the {@code X-Okapi-Request-Id} sent with the call to each module (its key included: log
   *     it {@link RequestIds#loggable without the secret})
   */
  public String requestId() {
    return requestId;
  }

  /** The call is answered (or given up): its call backs are no longer recognised. Idempotent. */
  public void close() {
    calls.closed(this);
  }

  String handle() {
    return handle;
  }

  /** Compares the whole secret whatever its first difference, then the tenant. */
  boolean isCalledBackBy(String requestTenant, String key) {
    return MessageDigest.isEqual(secret, secretOf(key)) && tenant.equals(requestTenant);
  }

  private static byte[] secretOf(String key) {
    return key.substring(RequestIds.HANDLE_LENGTH).getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public String toString() {
    return "call " + RequestIds.loggable(requestId) + " of tenant " + tenant;
  }
}
