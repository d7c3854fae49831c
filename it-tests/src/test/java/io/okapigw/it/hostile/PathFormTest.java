package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.it.hostile.Backend.Recorded;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Paths a module or the admin API's router could read as another path than the one the gateway
 * routed and authorized are refused (400) and never forwarded; paths in normal form reach the
 * module as they were sent. {@code /s/*} is open to anyone, {@code /secure/*} needs a permission:
 * {@code /s/../secure/x} must not be how one gets there.
 */
@ExtendWith(HostileGateway.Resolver.class)
class PathFormTest {

  private static HostileGateway gw;

  @BeforeAll
  static void start(HostileGateway gateway) {
    gw = gateway;
  }

  @BeforeEach
  void forget() {
    gw.backend.drain();
  }

  private static RawResponse get(int port, String target, String token) throws IOException {
    try (RawConnection c = RawConnection.open(port)) {
      return c.send(
              "GET "
                  + target
                  + " HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n"
                  + (token == null ? "" : "X-Okapi-Token: " + token + "\r\n")
                  + "\r\n")
          .response();
    }
  }

  /**
   * Spring MVC and JAX-RS modules match a route without a segment's {@code ;} parameters: {@code
   * /spy/items/secret;x}, authorized as {@code /spy/items/{id}} and forwarded as it was, was served
   * as {@code /spy/items/secret}, which needs a permission.
   */
  @Test
  void pathParameters_refused_neverAuthorizedAsAnotherRoute() throws IOException {
    assertThat(get(gw.port(), "/spy/items/secret", null).status()).isEqualTo(401);
    assertThat(get(gw.port(), "/spy/items/other", null).status()).isEqualTo(200);
    gw.backend.drain();
    for (String path :
        new String[] {"/spy/items/secret;x", "/spy/items/secret;", "/spy;a/items/secret"}) {
      RawResponse response = get(gw.port(), path, null);
      assertThat(response.status()).as(path + ": " + response).isEqualTo(400);
    }
    assertThat(gw.forwarded()).extracting(Recorded::uri).isEmpty();
  }

  @Test
  void secure_needsItsPermission() throws IOException {
    assertThat(get(gw.port(), "/secure/x", null).status()).isEqualTo(401);
    assertThat(get(gw.port(), "/secure/x", gw.aliceToken()).text()).startsWith("secret");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/s/../secure/x",
        "/s/./../secure/x",
        "/s/x/../../secure/x",
        "/s/%2e%2e/secure/x",
        "/s/.%2E/secure/x",
        "/s/%2E./secure/x",
        "/s/..;/secure/x",
        "/s/..;a=b/secure/x",
        "/s/..%2Fsecure/x",
        "/s/..%2fsecure/x",
        "/s/..%5Csecure/x",
        "/s\\..\\secure\\x",
        "/s//../secure/x",
        "/s//x",
        "//s/x",
        "/s/a%2Fb",
        "/s/%73ecure",
        "/s/%7E",
        "/s/.",
        "/s/..",
        "/..",
        "/s/x%2",
        "/s/x%zz",
        "/s/x%",
        "/s/x;y=1",
        "*",
        "s/x",
        "/_/invoke/tenant/diku/s/../secure/x",
        "/_/invoke/tenant/diku/s//x"
      })
  void pathNotInNormalForm_400NeverForwarded(String path) throws Exception {
    RawResponse response = get(gw.port(), path, null);
    assertThat(response.status()).as(response.toString()).isEqualTo(400);
    assertThat(response.text()).contains("path");
    assertThat(gw.forwarded()).extracting(Recorded::uri).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/s/a.b/...c",
        "/s/x/",
        "/s/x%20y%3Bz",
        "/s/.hidden",
        "/s/..x",
        "/s/x%2A",
        "/_/invoke/tenant/diku/s/x"
      })
  void pathInNormalForm_forwardedAsItIs(String path) throws IOException {
    RawResponse response = get(gw.port(), path + "?q=%2e%2e/x", null);
    assertThat(response.status()).as(response.toString()).isEqualTo(200);
    assertThat(gw.backend.drain())
        .extracting(Recorded::uri)
        .containsExactly(path.replace("/_/invoke/tenant/diku", "") + "?q=%2e%2e/x");
  }

  /** Routed as disabling a module, the admin API's router would delete the tenant. */
  @Test
  void adminListener_dotSegmentInAdminPath_400TenantUntouched() throws IOException {
    for (String target :
        new String[] {
          "/_/proxy/tenants/diku/modules/..",
          "/_/proxy/tenants/diku/modules/%2E%2E",
          "/_/proxy/tenants/diku/modules/.%2e"
        }) {
      try (RawConnection c = RawConnection.open(gw.adminPort())) {
        c.send(
            "DELETE "
                + target
                + " HTTP/1.1\r\nHost: x\r\nX-Okapi-Token: "
                + gw.superToken()
                + "\r\n\r\n");
        assertThat(c.response().status()).as(target).isEqualTo(400);
      }
    }
    gw.admin().get("/_/proxy/tenants/diku").then().statusCode(200);
    assertThat(get(gw.port(), "/s/ping", null).text()).isEqualTo("pong");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/_/invoke/tenant/supertenant/../../proxy/tenants",
        "/_/proxy/health/../tenants",
        "/s/../_/proxy/tenants",
        "/_/proxy/health/%2e%2e/tenants"
      })
  void publicListener_pathsClimbingIntoTheAdminApi_400(String path) throws IOException {
    assertThat(get(gw.port(), path, gw.superToken()).status()).isEqualTo(400);
  }

  @Test
  void publicListener_adminApi403_healthServed() throws IOException {
    assertThat(get(gw.port(), "/_/proxy/tenants", gw.superToken()).status()).isEqualTo(403);
    try (RawConnection c = RawConnection.open(gw.port())) {
      c.send("GET /_/proxy/health HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.response().status()).isEqualTo(200);
    }
  }
}
