package io.okapigw.folio.module;

import io.vertx.core.Future;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeoutException;

/**
 * Module-to-module calls the Okapi way: to {@code X-Okapi-Url} + path, with the tenant, the token
 * and the request id the module received (the gateway chains the request id). Every call is
 * counted; a call that gets no answer within the timeout fails with 504, one that cannot connect
 * with 502, both naming the call.
 */
public final class OkapiClient {

  private final HttpClient client;
  private final OkapiHeaders headers;
  private final long timeoutMillis;
  private final CallCounts counts;

  OkapiClient(HttpClient client, OkapiHeaders headers, long timeoutMillis, CallCounts counts) {
    this.client = client;
    this.headers = headers;
    this.timeoutMillis = timeoutMillis;
    this.counts = counts;
  }

  /**
   * Sends the call and returns whatever was answered.
   *
   * @param path the path with query, e.g. from {@link Call#path}
   * @param body JSON body, or null for none
   */
  public Future<Answer> exchange(Call call, String path, JsonObject body) {
    RequestOptions options =
        headers.apply(
            new RequestOptions()
                .setMethod(call.method())
                .setAbsoluteURI(headers.okapiUrl() + path)
                .setIdleTimeout(timeoutMillis));
    counts.record(call.key(), true);
    return client
        .request(options)
        .compose(
            request ->
                body == null
                    ? request.send()
                    : request.putHeader("Content-Type", "application/json").send(body.toBuffer()))
        .compose(response -> answer(call, path, response))
        .recover(e -> Future.failedFuture(e instanceof ModuleError ? e : transport(call, path, e)));
  }

  /**
   * Sends the call and expects 2xx.
   *
   * @return the answer's JSON body (empty for none); fails with 502 naming the call otherwise
   */
  public Future<JsonObject> json(Call call, String path, JsonObject body) {
    return exchange(call, path, body)
        .map(
            answer -> {
              if (!answer.ok()) {
                throw answer.unexpected();
              }
              return answer.json();
            });
  }

  /**
   * @return {@link #json(Call, String, JsonObject)} without a body
   */
  public Future<JsonObject> json(Call call, String path) {
    return json(call, path, null);
  }

  private static Future<Answer> answer(Call call, String path, HttpClientResponse response) {
    return response
        .body()
        .map(b -> new Answer(call, path, response.statusCode(), b, response.headers()));
  }

  private ModuleError transport(Call call, String path, Throwable e) {
    String what =
        call.method()
            + " "
            + path
            + " (interface "
            + call.interfaceId()
            + ") via "
            + headers.okapiUrl();
    return e instanceof TimeoutException
        ? ModuleError.gatewayTimeout(what + " got no answer within " + timeoutMillis + " ms")
        : ModuleError.badGateway(what + " failed: " + e);
  }
}
