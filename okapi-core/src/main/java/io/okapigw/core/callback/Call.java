package io.okapigw.core.callback;

import io.netty.util.NetUtil;
import io.okapigw.core.http.RequestIds;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.concurrent.CopyOnWriteArrayList;

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
  private final CopyOnWriteArrayList<InetAddress> sentTo = new CopyOnWriteArrayList<>();

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

  /**
   * The call (its key) is sent on a module connection to {@code peer}: a call back of it may come
   * from there ({@link #isCalledBackFrom}).
   *
   * @param peer the address of the instance's end of the connection; null is ignored
   */
  public void sentTo(InetAddress peer) {
    if (peer != null) {
      sentTo.addIfAbsent(normal(peer));
    }
  }

  /**
   * @param source the IP address a request came from ({@code SocketAddress.hostAddress()}), or null
   * @return whether it is the address of a module connection the call was sent on: where its
   *     module's call backs come from, and, unlike the key, nothing a client can replay from
   *     elsewhere
   */
  public boolean isCalledBackFrom(String source) {
    if (source == null || sentTo.isEmpty()) {
      return false;
    }
    InetAddress address = NetUtil.createInetAddressFromIpAddressString(source);
    return address != null && sentTo.contains(normal(address));
  }

  /** An IPv4 address written as IPv6 ({@code ::ffff:10.0.0.5}) is that IPv4 address. */
  private static InetAddress normal(InetAddress address) {
    byte[] bytes = address.getAddress();
    if (bytes.length != 16) {
      return address;
    }
    for (int i = 0; i < 10; i++) {
      if (bytes[i] != 0) {
        return address;
      }
    }
    if (bytes[10] != (byte) 0xff || bytes[11] != (byte) 0xff) {
      return address;
    }
    try {
      return InetAddress.getByAddress(Arrays.copyOfRange(bytes, 12, 16));
    } catch (UnknownHostException e) {
      return address;
    }
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
