package io.okapigw.authtoken.lookup;

import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.http.OkapiHeaders;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * GETs JSON from other modules through the gateway, as a module does: to the gateway's {@code
 * X-Okapi-Url}, with the tenant, a token and the request id. Keep-alive connections, bounded waits.
 */
public final class LookupClient {
  /** Longest wait for a connection, and for the next byte of an answer. */
  public static final long TIMEOUT_MS = 10_000;

  /** Connections kept per gateway (each lookup holds one while it waits). */
  static final int MAX_CONNECTIONS = 64;

  /**
   * An answer.
   *
   * @param status the HTTP status
   * @param json the body as JSON when the status is 200, else {@code null}
   * @param text the body as text, for messages
   */
  public record Answer(int status, JsonObject json, String text) {}

  private final HttpClientAgent http;

  /**
   * @param vertx the module's Vert.x
   */
  public LookupClient(Vertx vertx) {
    this.http =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true).setConnectTimeout((int) TIMEOUT_MS),
            new PoolOptions().setHttp1MaxSize(MAX_CONNECTIONS));
  }

  /**
   * @param okapiUrl the gateway's base URL
   * @param pathAndQuery e.g. {@code /users/ID}, already encoded
   * @param tenant {@code X-Okapi-Tenant}
   * @param token {@code X-Okapi-Token}
   * @param requestId {@code X-Okapi-Request-Id}, or {@code null}
   * @return the answer; failed with a 502 {@link ApiException} naming the call if it could not be
   *     made or a 200 body is not a JSON object
   */
  public Future<Answer> get(
      String okapiUrl, String pathAndQuery, String tenant, String token, String requestId) {
    String base = okapiUrl.endsWith("/") ? okapiUrl.substring(0, okapiUrl.length() - 1) : okapiUrl;
    RequestOptions options =
        new RequestOptions()
            .setMethod(HttpMethod.GET)
            .setAbsoluteURI(base + pathAndQuery)
            .setIdleTimeout(TIMEOUT_MS)
            .putHeader(OkapiHeaders.TENANT, tenant)
            .putHeader(OkapiHeaders.TOKEN, token)
            .putHeader("Accept", "application/json");
    if (requestId != null) {
      options.putHeader(OkapiHeaders.REQUEST_ID, requestId);
    }
    String what = "GET " + pathAndQuery + " through the gateway";
    return http.request(options)
        .compose(request -> request.send())
        .compose(
            response ->
                response.body().map(body -> answer(what, response.statusCode(), body.toString())))
        .recover(
            e ->
                Future.failedFuture(
                    e instanceof ApiException
                        ? e
                        : new ApiException(502, what + " failed: " + e.getMessage())));
  }

  private static Answer answer(String what, int status, String text) {
    if (status != 200) {
      return new Answer(status, null, text);
    }
    try {
      return new Answer(status, new JsonObject(text), text);
    } catch (DecodeException | ClassCastException e) {
      throw new ApiException(502, what + " answered 200 with a body that is not a JSON object");
    }
  }

  /** Closes the connections. */
  public Future<Void> close() {
    return http.close();
  }
}
