package io.okapigw.authtoken.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.config.Settings;
import io.vertx.core.MultiMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The client's address through trusted proxies only: the peer unless it is trusted, then the hops
 * the proxies recorded, walked from the right, the first untrusted one the client.
 */
class ClientAddressesTest {

  private static ClientAddresses trusting(String proxies, ProxyHeaders headers) {
    return ClientAddresses.of(LoginThrottleOptions.defaults().withTrustedProxies(proxies, headers));
  }

  private static MultiMap headers(String... namesAndValues) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      headers.add(namesAndValues[i], namesAndValues[i + 1]);
    }
    return headers;
  }

  @Test
  void untrustedPeer_isTheClient_whateverItsHeadersSay() {
    ClientAddresses clients = trusting("10.0.0.0/8", ProxyHeaders.OKAPI);
    MultiMap forged = headers("X-Okapi-request-ip", "1.1.1.1", "X-Forwarded-For", "2.2.2.2");
    assertThat(clients.clientOf("6.6.6.6", forged)).isEqualTo("6.6.6.6");
    assertThat(trusting("none", ProxyHeaders.OKAPI).clientOf("127.0.0.1", forged))
        .isEqualTo("127.0.0.1");
  }

  @Test
  void behindTheGateway_theAddressItWrote() {
    ClientAddresses clients = trusting("10.0.0.1", ProxyHeaders.OKAPI);
    assertThat(clients.clientOf("10.0.0.1", headers("X-Okapi-request-ip", "6.6.6.6")))
        .isEqualTo("6.6.6.6");
    assertThat(clients.clientOf("10.0.0.1", headers()))
        .as("nothing recorded")
        .isEqualTo("10.0.0.1");
  }

  @Test
  void behindABalancerAndTheGateway_theAddressTheBalancerAppended_forgeriesLeftOfItIgnored() {
    ClientAddresses clients = trusting("10.0.0.1,192.168.0.0/24", ProxyHeaders.OKAPI);
    MultiMap viaBalancer =
        headers(
            "X-Forwarded-For", "9.9.9.9, 8.8.8.8",
            "X-Forwarded-For", "6.6.6.6",
            "X-Okapi-request-ip", "192.168.0.7");
    assertThat(clients.clientOf("10.0.0.1", viaBalancer)).isEqualTo("6.6.6.6");
    assertThat(trusting("10.0.0.1", ProxyHeaders.OKAPI).clientOf("10.0.0.1", viaBalancer))
        .as("the balancer not trusted: it is the client")
        .isEqualTo("192.168.0.7");
  }

  @Test
  void xforwarded_ignoresXOkapiRequestIp_whichAPlainProxyPassesOnAsTheClientWroteIt() {
    ClientAddresses clients = trusting("10.0.0.1", ProxyHeaders.XFORWARDED);
    MultiMap request = headers("X-Forwarded-For", "6.6.6.6", "X-Okapi-request-ip", "1.1.1.1");
    assertThat(clients.clientOf("10.0.0.1", request)).isEqualTo("6.6.6.6");
  }

  @Test
  void forwarded_readsForOfEachElement_portsQuotesAndBrackets() {
    ClientAddresses clients = trusting("10.0.0.1,10.0.0.2", ProxyHeaders.FORWARDED);
    assertThat(
            clients.clientOf(
                "10.0.0.1",
                headers(
                    "Forwarded",
                    "for=9.9.9.9, for=\"6.6.6.6:4711\";proto=https, For=10.0.0.2;by=10.0.0.1",
                    "X-Forwarded-For",
                    "1.1.1.1")))
        .isEqualTo("6.6.6.6");
    assertThat(
            clients.clientOf(
                "10.0.0.1", headers("Forwarded", "for=\"[2001:db8:cafe:17:1::5]:4711\"")))
        .isEqualTo("2001:db8:cafe:17::/64");
  }

  @Test
  void hopThatIsNoAddress_endsTheWalkAtTheProxyThatWroteIt() {
    ClientAddresses clients = trusting("10.0.0.0/8", ProxyHeaders.OKAPI);
    assertThat(clients.clientOf("10.0.0.1", headers("X-Forwarded-For", "6.6.6.6, unknown")))
        .isEqualTo("10.0.0.1");
    assertThat(clients.clientOf("10.0.0.1", headers("X-Forwarded-For", "6.6.6.6, example.org")))
        .as("never a name lookup")
        .isEqualTo("10.0.0.1");
    assertThat(
            trusting("10.0.0.0/8", ProxyHeaders.FORWARDED)
                .clientOf("10.0.0.1", headers("Forwarded", "for=_hidden, for=10.0.0.3")))
        .isEqualTo("10.0.0.3");
  }

  @Test
  void allHopsTrusted_theLeftmost() {
    ClientAddresses clients = trusting("10.0.0.0/8", ProxyHeaders.OKAPI);
    assertThat(clients.clientOf("10.0.0.1", headers("X-Forwarded-For", "10.0.0.3, 10.0.0.2")))
        .isEqualTo("10.0.0.3");
  }

  @Test
  void ipv6_countedByItsSlash64_ipv4MappedAsIpv4() {
    ClientAddresses clients = trusting("::1", ProxyHeaders.OKAPI);
    assertThat(clients.clientOf("2001:db8:0:1:aaaa::1", headers()))
        .isEqualTo(clients.clientOf("2001:db8:0:1:bbbb::2", headers()))
        .isEqualTo("2001:db8:0:1::/64");
    assertThat(clients.clientOf("::1", headers("X-Forwarded-For", "::ffff:6.6.6.6")))
        .isEqualTo("6.6.6.6");
    assertThat(clients.clientOf("0:0:0:0:0:0:0:1", headers("X-Forwarded-For", "6.6.6.6")))
        .as("the trusted loopback however written")
        .isEqualTo("6.6.6.6");
  }

  @Test
  void unknownPeer_null() {
    assertThat(trusting("none", ProxyHeaders.OKAPI).clientOf(null, headers())).isNull();
  }

  @Test
  void trustedProxies_badEntry_refusedNamingTheSetting() {
    for (String bad :
        new String[] {"10.0.0.0/33", "example.org", "10.0.0.1,", "::1/129", "1.2.3"}) {
      assertThatThrownBy(
              () -> LoginThrottleOptions.from(Settings.of(Map.of("login.trusted-proxies", bad))))
          .as(bad)
          .hasMessageContaining("login.trusted-proxies must be");
    }
    assertThat(
            LoginThrottleOptions.from(
                    Settings.of(Map.of("login.trusted-proxies", " 10.0.0.0/8 , 2001:db8::/32 ")))
                .trustedProxies())
        .isNotBlank();
  }
}
