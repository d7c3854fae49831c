package io.okapigw.authtoken.throttle;

import io.netty.handler.ipfilter.IpFilterRuleType;
import io.netty.handler.ipfilter.IpSubnetFilterRule;
import io.netty.util.NetUtil;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The address a login comes from, seen through trusted proxies only, as the usual implementations
 * do (nginx's {@code real_ip_recursive}, Tomcat's {@code RemoteIpValve}): the module's peer, unless
 * it is a trusted proxy; then the hops the proxies recorded ({@link ProxyHeaders}) are walked from
 * the right, each trusted one skipped, and the first untrusted one is the client. A hop that is no
 * IP address ({@code unknown}, an obfuscated name, garbage) ends the walk at the trusted proxy that
 * wrote it; all hops trusted: the leftmost. What a client writes into the headers counts only left
 * of the hop its first trusted proxy appended, so it is never reached.
 *
 * <p>An IPv6 client counts by its /64: one host has a whole /64 to pick addresses from.
 */
public final class ClientAddresses {

  /** Spelled as Okapi 6.1.5 sends it. */
  static final String REQUEST_IP = "X-Okapi-request-ip";

  private static final String X_FORWARDED_FOR = "X-Forwarded-For";
  private static final String FORWARDED = "Forwarded";

  private final List<IpSubnetFilterRule> trusted;
  private final ProxyHeaders headers;

  private ClientAddresses(List<IpSubnetFilterRule> trusted, ProxyHeaders headers) {
    this.trusted = trusted;
    this.headers = headers;
  }

  /**
   * @param options {@code login.trusted-proxies} and {@code login.proxy-headers}
   * @return the resolver they describe
   */
  public static ClientAddresses of(LoginThrottleOptions options) {
    return new ClientAddresses(parse(options.trustedProxies()), options.proxyHeaders());
  }

  /**
   * @return the client a request comes from, or {@code null} if the peer is unknown
   */
  public String clientOf(HttpServerRequest request) {
    SocketAddress peer = request.remoteAddress();
    return clientOf(peer == null ? null : peer.hostAddress(), request.headers());
  }

  /**
   * @param peer the module's peer (an IP address), or {@code null}
   * @param requestHeaders the request's headers
   * @return the client's address (IPv6: its /64), or {@code null} if the peer is unknown
   */
  String clientOf(String peer, MultiMap requestHeaders) {
    InetAddress hop = peer == null ? null : ip(peer);
    if (hop == null) {
      return peer;
    }
    List<String> recorded = hops(requestHeaders);
    for (int i = recorded.size() - 1; i >= 0 && isTrusted(hop); i--) {
      InetAddress next = ip(recorded.get(i));
      if (next == null) {
        break;
      }
      hop = next;
    }
    return key(hop);
  }

  private boolean isTrusted(InetAddress address) {
    InetSocketAddress socket = new InetSocketAddress(address, 0);
    return trusted.stream().anyMatch(rule -> rule.matches(socket));
  }

  /** The hops the proxies recorded, the client's side first. */
  private List<String> hops(MultiMap requestHeaders) {
    List<String> hops = new ArrayList<>();
    if (headers == ProxyHeaders.FORWARDED) {
      requestHeaders
          .getAll(FORWARDED)
          .forEach(line -> split(line).forEach(e -> hops.add(forOf(e))));
      return hops;
    }
    requestHeaders.getAll(X_FORWARDED_FOR).forEach(line -> hops.addAll(split(line)));
    if (headers == ProxyHeaders.OKAPI) {
      requestHeaders.getAll(REQUEST_IP).forEach(line -> hops.addAll(split(line)));
    }
    return hops;
  }

  private static List<String> split(String line) {
    return Arrays.stream(line.split(",", -1)).map(String::trim).toList();
  }

  /** The {@code for=} of a {@code Forwarded} element, or {@code ""} if it has none. */
  private static String forOf(String element) {
    for (String pair : element.split(";")) {
      String p = pair.trim();
      if (p.length() > 4 && p.substring(0, 4).equalsIgnoreCase("for=")) {
        return p.substring(4).trim();
      }
    }
    return "";
  }

  /**
   * An address as a header writes it: {@code 192.0.2.1}, {@code 192.0.2.1:4711}, {@code
   * 2001:db8::1}, {@code [2001:db8::1]:4711}, each perhaps in quotes; anything else is {@code
   * null}. Never a name lookup.
   */
  static InetAddress ip(String text) {
    String s = text.trim();
    if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) {
      s = s.substring(1, s.length() - 1);
    }
    if (s.startsWith("[")) {
      int end = s.indexOf(']');
      s = end < 0 ? "" : s.substring(1, end);
    } else if (s.indexOf(':') > 0 && s.indexOf(':') == s.lastIndexOf(':')) {
      s = s.substring(0, s.indexOf(':'));
    }
    return s.isEmpty() ? null : unmapped(NetUtil.createInetAddressFromIpAddressString(s));
  }

  /** {@code ::ffff:a.b.c.d} (an IPv4 client of a dual-stack socket) as the IPv4 address it is. */
  private static InetAddress unmapped(InetAddress address) {
    byte[] b = address == null ? null : address.getAddress();
    if (b == null || b.length != 16 || (b[10] & 0xff) != 0xff || (b[11] & 0xff) != 0xff) {
      return address;
    }
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return address;
      }
    }
    try {
      return InetAddress.getByAddress(Arrays.copyOfRange(b, 12, 16));
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  /** What the throttle counts a client by: an IPv4 address, or an IPv6 address's /64. */
  private static String key(InetAddress address) {
    if (address instanceof Inet4Address) {
      return address.getHostAddress();
    }
    byte[] b = address.getAddress();
    StringBuilder key = new StringBuilder();
    for (int i = 0; i < 8; i += 2) {
      key.append(Integer.toHexString((b[i] & 0xff) << 8 | b[i + 1] & 0xff)).append(':');
    }
    return key.append(":/64").toString();
  }

  /**
   * @param list {@code none}, or addresses and CIDR blocks separated by commas
   * @return the rules; fails naming the first entry that is neither
   */
  static List<IpSubnetFilterRule> parse(String list) {
    if (list.isBlank() || list.trim().equalsIgnoreCase("none")) {
      return List.of();
    }
    List<IpSubnetFilterRule> rules = new ArrayList<>();
    for (String entry : list.split(",", -1)) {
      rules.add(rule(entry.trim().toLowerCase(Locale.ROOT)));
    }
    return List.copyOf(rules);
  }

  private static IpSubnetFilterRule rule(String entry) {
    int slash = entry.indexOf('/');
    String address = slash < 0 ? entry : entry.substring(0, slash);
    InetAddress ip = NetUtil.createInetAddressFromIpAddressString(address);
    int bits = ip instanceof Inet4Address ? 32 : 128;
    int prefix = bits;
    try {
      prefix = slash < 0 ? bits : Integer.parseInt(entry.substring(slash + 1));
    } catch (NumberFormatException e) {
      ip = null;
    }
    if (ip == null || prefix < 0 || prefix > bits) {
      throw new IllegalArgumentException("not an IP address or CIDR block: '" + entry + "'");
    }
    return new IpSubnetFilterRule(ip, prefix, IpFilterRuleType.ACCEPT);
  }

  /**
   * @return whether {@code list} is {@code none} or addresses and CIDR blocks
   */
  static boolean isValid(String list) {
    try {
      parse(list);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
