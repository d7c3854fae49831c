package io.okapigw.folio;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * HTTP calls from test threads with a Vert.x client. The call chain is built on a Vert.x context:
 * built on the test thread, a response future may complete before {@code body()} is attached, and
 * the body is then lost (the call never completes).
 */
public final class TestHttp {

  /**
   * An answer.
   *
   * @param status HTTP status
   * @param body the body
   */
  public record Result(int status, Buffer body) {

    /**
     * @return the body as a JSON object
     */
    public JsonObject json() {
      return new JsonObject(body);
    }
  }

  private TestHttp() {}

  /**
   * @return the answer, once it arrived; body may be null
   */
  public static Future<Result> start(
      Vertx vertx, HttpClient client, RequestOptions options, Buffer body) {
    Promise<Result> result = Promise.promise();
    vertx
        .getOrCreateContext()
        .runOnContext(
            v ->
                client
                    .request(options)
                    .compose(request -> body == null ? request.send() : request.send(body))
                    .compose(
                        response -> response.body().map(b -> new Result(response.statusCode(), b)))
                    .onComplete(result));
    return result.future();
  }

  /**
   * @return the answer; fails the test if none came within 2 minutes (a hang guard)
   */
  public static Result send(Vertx vertx, HttpClient client, RequestOptions options, Buffer body) {
    try {
      return start(vertx, client, options, body).await(2, TimeUnit.MINUTES);
    } catch (TimeoutException e) {
      throw new AssertionError(
          "no answer within 2 minutes to " + options.getMethod() + " " + options.getURI(), e);
    }
  }
}
