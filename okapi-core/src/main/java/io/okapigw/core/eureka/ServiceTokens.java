package io.okapigw.core.eureka;

import com.github.benmanes.caffeine.cache.Ticker;
import io.okapigw.core.http.HttpError;
import io.okapigw.core.upstream.ModuleCall.Answer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The client-credentials tokens the gateway uses: the master realm's admin client's (to read
 * realms), and each tenant's {@code sidecar-module-access-client}'s, which module-to-module calls
 * carry as {@code X-System-Token} and with which mod-users-keycloak is asked, as the sidecar's
 * {@code ServiceTokenProvider} does. The sidecar reads the tenant client's secret from FOLIO's
 * secure store; the gateway reads it from the realm with the admin client (one credential to
 * configure, {@code eureka.admin-client-secret}). Tokens are kept until a minute before they expire
 * (the sidecar's {@code token-cache.refresh-before-expiry-sec}); a token Keycloak refuses is
 * forgotten with its secret.
 */
public final class ServiceTokens {

  private static final long EARLY_NANOS = TimeUnit.SECONDS.toNanos(60);
  private static final String MASTER = "master";

  private final EurekaCalls keycloak;
  private final EurekaOptions options;
  private final Expiring<String> tokens;
  private final Expiring<String> secrets;

  public ServiceTokens(EurekaCalls keycloak, EurekaOptions options, Ticker ticker) {
    this.keycloak = keycloak;
    this.options = options;
    this.tokens = new Expiring<>(ticker);
    this.secrets = new Expiring<>(ticker);
  }

  /**
   * @return whether the gateway can get tokens (an admin client secret is configured)
   */
  public boolean available() {
    return options.adminCalls();
  }

  /**
   * @return an access token of the master realm's admin client
   */
  public Future<String> adminToken() {
    return tokens.get(
        MASTER, k -> token(MASTER, options.adminClientId(), options.adminClientSecret()));
  }

  /**
   * @return an access token of the tenant's {@code eureka.service-client-id}
   */
  public Future<String> serviceToken(String tenant) {
    return secrets
        .get(tenant, this::secret)
        .compose(secret -> tokens.get(tenant, t -> token(t, options.serviceClientId(), secret)))
        .onFailure(
            e -> {
              tokens.forget(tenant);
              secrets.forget(tenant);
            });
  }

  /** Forgets the tenant's token, which a module refused: the next call gets a new one. */
  public void forget(String tenant) {
    tokens.forget(tenant);
  }

  private Future<Expiring.Held<String>> token(String realm, String clientId, String secret) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", "client_credentials");
    form.put("client_id", clientId);
    form.put("client_secret", secret);
    return keycloak
        .postForm("/realms/" + realm + "/protocol/openid-connect/token", form, null)
        .map(
            answer -> {
              JsonObject body = ok(answer, "a token of client " + clientId + " in realm " + realm);
              long expiresIn = body.getLong("expires_in", 60L);
              return new Expiring.Held<>(
                  body.getString("access_token"),
                  tokens.now() + TimeUnit.SECONDS.toNanos(expiresIn) - EARLY_NANOS);
            });
  }

  /** The tenant client's secret, read with the admin token; kept for an hour. */
  private Future<Expiring.Held<String>> secret(String tenant) {
    String clientId = options.serviceClientId();
    String clients = "/admin/realms/" + tenant + "/clients";
    return adminToken()
        .compose(
            admin ->
                keycloak
                    .get(
                        clients
                            + "?clientId="
                            + URLEncoder.encode(clientId, StandardCharsets.UTF_8),
                        admin)
                    .compose(
                        answer -> {
                          JsonArray found =
                              new JsonArray(
                                  ok(answer, "client " + clientId).getJsonArray("list").encode());
                          if (found.isEmpty()) {
                            throw HttpError.unavailable(
                                "realm " + tenant + " has no client " + clientId);
                          }
                          String id = found.getJsonObject(0).getString("id");
                          return keycloak.get(clients + "/" + id + "/client-secret", admin);
                        }))
        .map(
            answer ->
                new Expiring.Held<>(
                    ok(answer, "the secret of client " + clientId).getString("value"),
                    secrets.now() + TimeUnit.HOURS.toNanos(1)));
  }

  /** The answer's JSON (an array is wrapped as {@code {"list": [...]}}); else 503 naming it. */
  private static JsonObject ok(Answer answer, String what) {
    if (answer.status() != 200) {
      throw HttpError.unavailable("Keycloak answered " + answer.status() + " for " + what);
    }
    String body = answer.body().toString().trim();
    return body.startsWith("[")
        ? new JsonObject().put("list", new JsonArray(body))
        : new JsonObject(body);
  }
}
