package io.okapigw.perf.kit.launch;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.IntStream;

/**
 * Logs a {@link BenchUser} in through {@code POST /authn/login} (at the gateway or the auth module
 * itself). Every login starts a new session, so {@link #many} gives distinct tokens: a request
 * carrying each once is a cache miss for the gateway.
 */
public final class Logins {

  private static final int CONCURRENCY = 8;

  private Logins() {}

  /**
   * @return the access token (X-Okapi-Token) of a new session; failed if the login is refused
   */
  public static Future<String> one(Vertx vertx, String baseUrl, BenchUser user) {
    HttpClientAgent client = vertx.createHttpClient();
    return login(client, baseUrl, user).eventually(client::close);
  }

  /**
   * @param count tokens wanted
   * @return {@code count} distinct tokens, from {@value #CONCURRENCY} logins at a time
   */
  public static Future<List<String>> many(Vertx vertx, String baseUrl, BenchUser user, int count) {
    HttpClientAgent client = vertx.createHttpClient(new PoolOptions().setHttp1MaxSize(CONCURRENCY));
    AtomicReferenceArray<String> tokens = new AtomicReferenceArray<>(count);
    AtomicInteger next = new AtomicInteger();
    List<Future<Void>> workers = new ArrayList<>();
    for (int i = 0; i < Math.min(CONCURRENCY, count); i++) {
      Promise<Void> worker = Promise.promise();
      loginLoop(client, baseUrl, user, tokens, next, worker);
      workers.add(worker.future());
    }
    return Future.all(workers)
        .map(v -> IntStream.range(0, count).mapToObj(tokens::get).toList())
        .eventually(client::close);
  }

  // One login after the other, without chaining futures (thousands of logins per worker).
  private static void loginLoop(
      HttpClientAgent client,
      String baseUrl,
      BenchUser user,
      AtomicReferenceArray<String> tokens,
      AtomicInteger next,
      Promise<Void> worker) {
    int i = next.getAndIncrement();
    if (i >= tokens.length()) {
      worker.tryComplete();
      return;
    }
    login(client, baseUrl, user)
        .onSuccess(
            token -> {
              tokens.set(i, token);
              loginLoop(client, baseUrl, user, tokens, next, worker);
            })
        .onFailure(worker::tryFail);
  }

  private static Future<String> login(HttpClientAgent client, String baseUrl, BenchUser user) {
    JsonObject body =
        new JsonObject().put("username", user.username()).put("password", user.password());
    return client
        .request(
            new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(baseUrl + "/authn/login")
                .putHeader("X-Okapi-Tenant", user.tenant())
                .putHeader("Content-Type", "application/json"))
        .compose(request -> request.send(body.toBuffer()))
        .compose(
            response ->
                response
                    .body()
                    .compose(
                        answer -> {
                          String token = response.getHeader("X-Okapi-Token");
                          return response.statusCode() == 201 && token != null
                              ? Future.succeededFuture(token)
                              : Future.failedFuture(
                                  "login of "
                                      + user.username()
                                      + " at "
                                      + baseUrl
                                      + " answered "
                                      + response.statusCode()
                                      + ": "
                                      + answer);
                        }));
  }
}
