package io.okapigw.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A refresh sent at the same moment as a logout of the same session, through the gateway, as an
 * attacker holding a stolen refresh token would: in 4-8 of 15 tries the logout answered 204 and yet
 * the refresh token issued beside it refreshed again, and kept the session alive for the refresh
 * token's 7 days. Now, whichever comes first, nothing issued for the session works once the logout
 * has answered.
 */
@ExtendWith(HostileGateway.Resolver.class)
class SessionRaceTest {

  private static final int ROUNDS = 90;
  private static final Duration BOUND = Duration.ofSeconds(30);
  private static final String USER = "dave";

  private static HostileGateway gw;
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(BOUND).build();
  private final Random random = new Random();

  @BeforeAll
  static void start(HostileGateway gateway) {
    gw = gateway;
  }

  @Test
  void refreshRacingLogout_noRefreshTokenIssuedForTheSessionWorksAfterTheLogout() {
    List<String> survivors = new ArrayList<>();
    int refreshWon = 0;
    for (int round = 0; round < ROUNDS; round++) {
      JsonObject login = new JsonObject(send(login()).body());
      String access = login.getString("accessToken");
      String refreshToken = login.getString("refreshToken");
      String how = List.of("logout", "logout by cookie", "logout-all").get(round % 3);
      CompletableFuture<HttpResponse<String>> refresh = later(refresh(refreshToken));
      CompletableFuture<HttpResponse<String>> logout = later(logout(how, access, refreshToken));
      HttpResponse<String> refreshed = refresh.join();
      assertThat(logout.join().statusCode()).as(how).isEqualTo(204);
      if (refreshed.statusCode() != 201) {
        assertThat(refreshed.statusCode()).as("refresh: " + refreshed.body()).isEqualTo(401);
        continue;
      }
      refreshWon++;
      JsonObject issued = new JsonObject(refreshed.body());
      int again = send(refresh(issued.getString("refreshToken"))).statusCode();
      int use = send(secure(issued.getString("accessToken"))).statusCode();
      if (again != 401 || use != 401) {
        survivors.add(how + ": refresh again " + again + ", its access token " + use);
      }
    }
    assertThat(survivors)
        .as("%d rounds, the refresh came first in %d: what outlived the logout", ROUNDS, refreshWon)
        .isEmpty();
  }

  private static HttpRequest login() {
    return post("/authn/login", new JsonObject().put("username", USER).put("password", USER))
        .build();
  }

  private static HttpRequest refresh(String refreshToken) {
    return post("/authn/refresh", new JsonObject().put("refreshToken", refreshToken)).build();
  }

  private static HttpRequest logout(String how, String access, String refreshToken) {
    return switch (how) {
      case "logout by cookie" ->
          post("/authn/logout", null).header("Cookie", "folioRefreshToken=" + refreshToken).build();
      case "logout-all" -> post("/authn/logout-all", null).header("X-Okapi-Token", access).build();
      default -> post("/authn/logout", null).header("X-Okapi-Token", access).build();
    };
  }

  /** {@code GET /secure/x}: 403 for dave's valid token (no {@code secure.get}), 401 if revoked. */
  private static HttpRequest secure(String access) {
    return HttpRequest.newBuilder(URI.create(gw.url() + "/secure/x"))
        .timeout(BOUND)
        .header("X-Okapi-Tenant", HostileGateway.TENANT)
        .header("X-Okapi-Token", access)
        .build();
  }

  private static HttpRequest.Builder post(String path, JsonObject body) {
    return HttpRequest.newBuilder(URI.create(gw.url() + path))
        .timeout(BOUND)
        .header("X-Okapi-Tenant", HostileGateway.TENANT)
        .header("Content-Type", "application/json")
        .POST(
            body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body.encode()));
  }

  private static HttpResponse<String> send(HttpRequest request) {
    return CLIENT.sendAsync(request, HttpResponse.BodyHandlers.ofString()).join();
  }

  /** Sends it at once or up to 3 ms later, so that either request may reach the module first. */
  private CompletableFuture<HttpResponse<String>> later(HttpRequest request) {
    Executor delayed = CompletableFuture.delayedExecutor(random.nextInt(4), TimeUnit.MILLISECONDS);
    return CompletableFuture.supplyAsync(() -> null, delayed)
        .thenCompose(v -> CLIENT.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
  }
}
