package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.AuthtokenOptions;
import io.okapigw.authtoken.AuthtokenVerticle;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.throttle.LoginThrottleOptions;
import io.okapigw.authtoken.throttle.ProxyHeaders;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.folio.register.AuthtokenDescriptor;
import io.okapigw.it.AdminCalls;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One guesser behind a NAT locked out everyone behind it: 100 failed logins for made-up names from
 * one address locked every login from that address (another tenant's super_admin too) for 10
 * minutes, and behind a load balancer every client had the balancer's address. Through the real
 * gateway, clients on addresses of their own (127.0.0.2, ...), and an authtoken module of its own
 * (tenants {@value #NAT} and {@value #OTHER}) that trusts the gateway (127.0.0.1) and a balancer
 * ({@value #BALANCER}) as proxies: the users who log in from the NAT go on doing so, the guesser is
 * locked out, a forged {@code X-Forwarded-For} changes nothing, and behind the balancer each client
 * counts by its own address.
 */
@ExtendWith(HostileGateway.Resolver.class)
class LoginLockoutTest {

  private static final Duration BOUND = Duration.ofSeconds(30);
  private static final String MODULE_ID = "mod-authtoken-lockout-1.0.0";
  private static final String NAT = "nat";
  private static final String OTHER = "lib2";
  private static final String NAT_ADDRESS = "127.0.0.2";
  private static final String ELSEWHERE = "127.0.0.3";
  private static final String BALANCER = "127.0.0.5";

  private static HostileGateway gw;
  private static Path dir;
  private static String deployment;

  @BeforeAll
  static void start(HostileGateway gateway) throws IOException {
    gw = gateway;
    dir = Files.createTempDirectory("okapigw-lockout");
    AuthtokenVerticle module =
        new AuthtokenVerticle(
            AuthtokenOptions.onLoopback(dir)
                .withPasswords(PasswordOptions.cheapest())
                .withLoginThrottle(
                    LoginThrottleOptions.defaults()
                        .withTrustedProxies("127.0.0.1," + BALANCER, ProxyHeaders.OKAPI))
                .withBootstrap(
                    List.of(
                        new BootstrapUser(NAT, "alice", "alice", List.of()),
                        new BootstrapUser(NAT, "bob", "bob", List.of()),
                        new BootstrapUser(NAT, "carol", "carol", List.of()),
                        new BootstrapUser(OTHER, "super_admin", "super_admin", List.of()))));
    deployment = gw.vertx.deployVerticle(module).await();
    AdminCalls calls = new AdminCalls(gw::admin);
    calls.register(
        AuthtokenDescriptor.read().put("id", MODULE_ID), "http://127.0.0.1:" + module.actualPort());
    for (String tenant : List.of(NAT, OTHER)) {
      calls.createTenant(tenant);
      calls.enable(tenant, MODULE_ID);
    }
  }

  @AfterAll
  static void stop() {
    gw.vertx.undeploy(deployment).await();
  }

  private static RawResponse login(
      String from, String tenant, String user, String password, String forwardedFor)
      throws IOException {
    String body = new JsonObject().put("username", user).put("password", password).encode();
    try (RawConnection c = RawConnection.open(gw.port(), from)) {
      return c.send(
              "POST /authn/login HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: "
                  + tenant
                  + "\r\n"
                  + (forwardedFor == null ? "" : "X-Forwarded-For: " + forwardedFor + "\r\n")
                  + "Content-Type: application/json\r\nContent-Length: "
                  + body.length()
                  + "\r\n\r\n"
                  + body)
          .response("POST", BOUND);
    }
  }

  private static int status(String from, String tenant, String user, String password)
      throws IOException {
    return login(from, tenant, user, password, null).status();
  }

  @Test
  void guesserBehindANat_locksOutNobodyWhoLogsInThere_norAnyoneElsewhere() throws IOException {
    assertThat(status(NAT_ADDRESS, NAT, "alice", "alice")).isEqualTo(201);
    assertThat(status(NAT_ADDRESS, OTHER, "super_admin", "super_admin")).isEqualTo(201);
    for (int i = 0; i < 100; i++) {
      assertThat(status(NAT_ADDRESS, NAT, "made-up-" + i, "guess")).isEqualTo(422);
    }
    assertThat(status(NAT_ADDRESS, NAT, "alice", "alice"))
        .as("alice behind the NAT")
        .isEqualTo(201);
    assertThat(status(NAT_ADDRESS, OTHER, "super_admin", "super_admin"))
        .as("another tenant's super_admin behind the NAT")
        .isEqualTo(201);
    RawResponse madeUp = login(NAT_ADDRESS, NAT, "made-up", "guess", null);
    RawResponse newThere = login(NAT_ADDRESS, NAT, "bob", "guess", null);
    assertThat(madeUp.status()).as(madeUp.toString()).isEqualTo(429);
    assertThat(madeUp.header("retry-after")).isNotNull();
    assertThat(newThere.text()).as("the same answer, user or not").isEqualTo(madeUp.text());
    RawResponse forged = login(NAT_ADDRESS, NAT, "made-up", "guess", "9.9.9.9");
    assertThat(forged.status()).as("a forged X-Forwarded-For: " + forged).isEqualTo(429);
    assertThat(status(ELSEWHERE, NAT, "bob", "bob")).as("bob elsewhere").isEqualTo(201);
  }

  @Test
  void behindATrustedBalancer_eachClientCountsByTheAddressTheBalancerAppended() throws IOException {
    for (int i = 0; i < 100; i++) {
      assertThat(login(BALANCER, NAT, "made-up-" + i, "guess", "6.6.6.6").status()).isEqualTo(422);
    }
    assertThat(login(BALANCER, NAT, "made-up", "guess", "5.5.5.5, 6.6.6.6").status())
        .as("the guesser, whatever it wrote before the balancer's entry")
        .isEqualTo(429);
    assertThat(login(BALANCER, NAT, "carol", "carol", "7.7.7.7").status())
        .as("another client of the balancer")
        .isEqualTo(201);
  }
}
