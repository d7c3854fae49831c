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
import java.util.function.Supplier;

/**
 * The tokens the gateway gets from Keycloak, as the sidecar's {@code ServiceTokenProvider} and
 * {@code SystemUserTokenProvider} get theirs: the master realm's admin client's (to read realms),
 * each tenant's {@code sidecar-module-access-client}'s (a module's call carries it as {@code
 * X-System-Token}; mod-users-keycloak is asked with it), and a module's system user's (a module's
 * call without a user's token carries it as {@code X-Okapi-Token}: the password grant of the
 * tenant's login client, the user named as the module, {@code mod-foo}).
 *
 * <p>The credentials come from FOLIO's secure store ({@link SecretStore}) under the sidecar's keys;
 * a client secret the store lacks is read from the realm with the admin client instead (one
 * credential to configure, {@code eureka.admin-client-secret}). A system user's password comes from
 * the store only. Tokens are cached per realm and client or user, concurrent callers sharing one
 * grant, and used until {@code eureka.token-refresh-before-expiry} (the sidecar's {@code
 * token-cache.refresh-before-expiry-sec}, 60 s) before they expire, a short-lived token until nine
 * tenths of its life ({@link #usableNanos}); a grant Keycloak refuses (401) forgets the secret it
 * used and is tried once more with it read again, as the sidecar resets its credentials.
 */
public final class ServiceTokens {

  private static final String MASTER = "master";
  private static final long MIN_EARLY_SECONDS = 30;

  private final EurekaCalls keycloak;
  private final EurekaOptions options;
  private final SecretStore store;
  private final Expiring<String> tokens;
  private final Expiring<String> secrets;

  public ServiceTokens(EurekaCalls keycloak, EurekaOptions options, Ticker ticker) {
    this.keycloak = keycloak;
    this.options = options;
    this.store = options.secrets();
    this.tokens = new Expiring<>(ticker);
    this.secrets = new Expiring<>(ticker);
  }

  /**
   * @return whether the gateway can read realms: it has the admin client's secret
   */
  public boolean adminAvailable() {
    return options.adminCalls();
  }

  /**
   * @return whether the gateway can get the tenant's service token: its client's secret is in the
   *     store, or it can be read from the realm
   */
  public boolean serviceAvailable(String tenant) {
    return adminAvailable() || store.secret(tenant, options.serviceClientId()).isPresent();
  }

  /**
   * @return an access token of the master realm's admin client
   */
  public Future<String> adminToken() {
    String client = options.adminClientId();
    return tokens.get(
        "client " + MASTER + " " + client,
        k ->
            clientToken(MASTER, client, () -> Future.succeededFuture(options.adminClientSecret())));
  }

  /**
   * @return an access token of the tenant's {@code eureka.service-client-id}
   */
  public Future<String> serviceToken(String tenant) {
    String client = options.serviceClientId();
    return tokens.get(
        "client " + tenant + " " + client,
        k -> clientToken(tenant, client, () -> clientSecret(tenant, client)));
  }

  /**
   * @param username the system user, named as its module ({@code mod-foo})
   * @return an access token of the tenant's system user, logged in with the tenant's login client
   */
  public Future<String> systemUserToken(String tenant, String username) {
    return tokens.get("user " + tenant + " " + username, k -> userToken(tenant, username));
  }

  /** Forgets the tenant's service token, which a module refused: the next call gets a new one. */
  public void forget(String tenant) {
    tokens.forget("client " + tenant + " " + options.serviceClientId());
  }

  /**
   * The sidecar's {@code AsyncTokenCacheFactory.calculateTtl}: a token is used until {@code
   * eureka.token-refresh-before-expiry} before it expires if that leaves more than 30 s, else until
   * nine tenths of its life.
   *
   * @param expiresIn the grant's {@code expires_in}, seconds
   * @return how long the token is used, nanoseconds (at least one millisecond)
   */
  static long usableNanos(long expiresIn, long refreshBeforeSeconds) {
    long early = expiresIn - refreshBeforeSeconds;
    if (early > MIN_EARLY_SECONDS) {
      return TimeUnit.SECONDS.toNanos(early);
    }
    long millis = expiresIn * 1000;
    return TimeUnit.MILLISECONDS.toNanos(Math.max(millis - Math.max(millis / 10, 1), 1));
  }

  private Future<Expiring.Held<String>> clientToken(
      String realm, String clientId, Supplier<Future<String>> secret) {
    return secret
        .get()
        .compose(s -> clientGrant(realm, clientId, s))
        .recover(
            e -> {
              if (!refused(e)) {
                return Future.failedFuture(e);
              }
              secrets.forget(realm + " " + clientId);
              return secret.get().compose(s -> clientGrant(realm, clientId, s));
            });
  }

  private Future<Expiring.Held<String>> clientGrant(String realm, String clientId, String secret) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", "client_credentials");
    form.put("client_id", clientId);
    form.put("client_secret", secret);
    return grant(realm, form, "a token of client " + clientId + " in realm " + realm);
  }

  private Future<Expiring.Held<String>> userToken(String tenant, String username) {
    String loginClient = tenant + options.loginClientSuffix();
    String password = store.secret(tenant, username).orElse(null);
    if (password == null) {
      return Future.failedFuture(
          HttpError.unavailable(
              "the secure store has no password of system user "
                  + username
                  + " of tenant "
                  + tenant
                  + (store.present()
                      ? " (key " + store.key(tenant, username) + ")"
                      : " (no " + EurekaOptions.SECRET_STORE_TYPE.key() + ")")));
    }
    Supplier<Future<Expiring.Held<String>>> login =
        () ->
            clientSecret(tenant, loginClient)
                .compose(
                    secret -> {
                      Map<String, String> form = new LinkedHashMap<>();
                      form.put("grant_type", "password");
                      form.put("client_id", loginClient);
                      form.put("client_secret", secret);
                      form.put("username", username);
                      form.put("password", password);
                      return grant(
                          tenant, form, "a token of system user " + username + " in " + tenant);
                    });
    return login
        .get()
        .recover(
            e -> {
              if (!refused(e)) {
                return Future.failedFuture(e);
              }
              secrets.forget(tenant + " " + loginClient);
              return login.get();
            });
  }

  private Future<Expiring.Held<String>> grant(String realm, Map<String, String> form, String what) {
    return keycloak
        .postForm("/realms/" + realm + "/protocol/openid-connect/token", form, null)
        .map(
            answer -> {
              if (answer.status() == 400 || answer.status() == 401) {
                throw new Refused("Keycloak refused " + what + " (" + answer.status() + ")");
              }
              JsonObject body = ok(answer, what);
              long usable =
                  usableNanos(
                      body.getLong("expires_in", 60L),
                      options.tokenRefreshBeforeExpiry().toSeconds());
              return new Expiring.Held<>(body.getString("access_token"), tokens.now() + usable);
            });
  }

  private static boolean refused(Throwable e) {
    return e instanceof Refused;
  }

  /** A grant Keycloak refused: the credentials are wrong (503 to the request). */
  private static final class Refused extends HttpError {
    Refused(String message) {
      super(503, message);
    }
  }

  /**
   * The secret of a client of the tenant's realm: the secure store's, else read from the realm with
   * the admin client (kept for an hour).
   */
  private Future<String> clientSecret(String tenant, String clientId) {
    return store
        .secret(tenant, clientId)
        .map(Future::succeededFuture)
        .orElseGet(() -> secrets.get(tenant + " " + clientId, k -> readSecret(tenant, clientId)));
  }

  private Future<Expiring.Held<String>> readSecret(String tenant, String clientId) {
    if (!adminAvailable()) {
      return Future.failedFuture(
          HttpError.unavailable(
              "no secret of client "
                  + clientId
                  + " of realm "
                  + tenant
                  + ": "
                  + (store.present()
                      ? "the secure store has no " + store.key(tenant, clientId) + " and "
                      : "")
                  + "the gateway has no admin client secret to read it with ("
                  + EurekaOptions.ADMIN_CLIENT_SECRET.key()
                  + ")"));
    }
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
