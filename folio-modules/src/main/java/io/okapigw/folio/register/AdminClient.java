package io.okapigw.folio.register;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admin calls to an Okapi-compatible gateway, made as its super admin once the admin API asks for
 * it: a call answered 401 or 403 is sent once more with a fresh token of the super admin (logged in
 * through the gateway for tenant {@value SuperAdmin#TENANT}); later calls carry that token until
 * the gateway refuses it (tokens expire, after 10 minutes by default). Without credentials,
 * refusals are returned as they are. Calls are made one at a time; neither the password nor a token
 * is ever logged.
 */
final class AdminClient {

  private static final Logger log = LoggerFactory.getLogger(AdminClient.class);

  /** An HTTP answer. */
  record Answer(int status, Buffer body) {}

  private final HttpClientAgent client;
  private final String adminUrl;
  private final SuperAdmin superAdmin;
  private String token;

  /**
   * @param adminUrl the gateway's URL, without a trailing slash
   * @param superAdmin the super admin's credentials; null when none are known
   */
  AdminClient(Vertx vertx, String adminUrl, SuperAdmin superAdmin) {
    this.client = vertx.createHttpClient();
    this.adminUrl = adminUrl;
    this.superAdmin = superAdmin;
  }

  String adminUrl() {
    return adminUrl;
  }

  boolean hasCredentials() {
    return superAdmin != null;
  }

  /**
   * @param body JSON body, or null for none
   * @return the gateway's answer (after one login and retry if it refused the call and credentials
   *     are known); failed naming the call if no answer came, or if the login failed
   */
  Future<Answer> send(HttpMethod method, String path, JsonObject body) {
    return send(method, path, body == null ? null : body.toBuffer());
  }

  /** As {@link #send(HttpMethod, String, JsonObject)}: a POST of a JSON array (an install). */
  Future<Answer> post(String path, JsonArray body) {
    return send(HttpMethod.POST, path, body.toBuffer());
  }

  private Future<Answer> send(HttpMethod method, String path, Buffer body) {
    return attempt(method, path, body)
        .compose(
            answer ->
                refused(answer) && superAdmin != null
                    ? loginThroughGateway(answer.status() + " to " + method + " " + path)
                        .compose(v -> attempt(method, path, body))
                    : Future.succeededFuture(answer));
  }

  /**
   * Logs the super admin in through the gateway now and keeps the token.
   *
   * @param reason why, for the log
   * @return done; failed naming the user and the gateway's answer
   */
  Future<Void> loginThroughGateway(String reason) {
    log.info(
        "logging in as {} (tenant {}) at {}: {}",
        superAdmin.username(),
        SuperAdmin.TENANT,
        adminUrl,
        reason);
    return login(adminUrl)
        .map(
            t -> {
              token = t;
              return null;
            });
  }

  /**
   * Logs the super admin in at {@code baseUrl} (the gateway, or the auth module itself).
   *
   * @return the token; failed naming the user, the URL and the answer
   */
  Future<String> login(String baseUrl) {
    JsonObject credentials =
        new JsonObject()
            .put("username", superAdmin.username())
            .put("password", superAdmin.password());
    RequestOptions options =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setAbsoluteURI(baseUrl + "/authn/login")
            .putHeader("X-Okapi-Tenant", SuperAdmin.TENANT)
            .putHeader("Content-Type", "application/json");
    String call =
        "login of " + superAdmin.username() + " (tenant " + SuperAdmin.TENANT + ") at " + baseUrl;
    return client
        .request(options)
        .compose(request -> request.send(credentials.toBuffer()))
        .compose(
            response ->
                response
                    .body()
                    .compose(
                        body -> {
                          String issued = response.getHeader("X-Okapi-Token");
                          return response.statusCode() == 201 && issued != null
                              ? Future.succeededFuture(issued)
                              : Future.failedFuture(
                                  new IllegalStateException(
                                      call + " answered " + response.statusCode() + ": " + body));
                        }),
            e ->
                Future.failedFuture(
                    new IllegalStateException(call + " failed: " + e.getMessage(), e)));
  }

  Future<Void> close() {
    return client.close();
  }

  private static boolean refused(Answer answer) {
    return answer.status() == 401 || answer.status() == 403;
  }

  private Future<Answer> attempt(HttpMethod method, String path, Buffer body) {
    RequestOptions options =
        new RequestOptions()
            .setMethod(method)
            .setAbsoluteURI(adminUrl + path)
            .putHeader("Accept", "application/json, text/plain");
    if (token != null) {
      options.putHeader("X-Okapi-Token", token);
    }
    return client
        .request(options)
        .compose(
            request ->
                body == null
                    ? request.send()
                    : request.putHeader("Content-Type", "application/json").send(body))
        .compose(response -> response.body().map(b -> new Answer(response.statusCode(), b)))
        .recover(
            e ->
                Future.failedFuture(
                    new IllegalStateException(
                        method + " " + adminUrl + path + " failed: " + e.getMessage(), e)));
  }
}
