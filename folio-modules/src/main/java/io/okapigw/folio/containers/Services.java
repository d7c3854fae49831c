package io.okapigw.folio.containers;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** HTTP calls of the {@code register} job: plain requests, and waiting for a service to be up. */
final class Services {

  private static final Logger log = LoggerFactory.getLogger(Services.class);
  private static final long POLL_MILLIS = 1000;

  /** An HTTP answer. */
  record Answer(int status, MultiMap headers, Buffer body) {}

  private final Vertx vertx;
  private final HttpClientAgent client;

  Services(Vertx vertx) {
    this.vertx = vertx;
    this.client = vertx.createHttpClient();
  }

  Future<Answer> send(HttpMethod method, String url, MultiMap headers, Buffer body) {
    RequestOptions options =
        new RequestOptions().setMethod(method).setAbsoluteURI(url).setIdleTimeout(30_000);
    if (headers != null) {
      options.setHeaders(headers);
    }
    return client
        .request(options)
        .compose(request -> body == null ? request.send() : request.send(body))
        .compose(
            response ->
                response.body().map(b -> new Answer(response.statusCode(), response.headers(), b)));
  }

  /**
   * Polls {@code GET url} every second until {@code ready} accepts the answer.
   *
   * @return the answer {@code ready} accepted; failed naming the service and its last answer after
   *     {@code timeout}
   */
  Future<Answer> awaitUp(String name, String url, Predicate<Answer> ready, Duration timeout) {
    Promise<Answer> up = Promise.promise();
    long deadline = System.nanoTime() + timeout.toNanos();
    log.info("waiting for {} at {} ...", name, url);
    poll(name, url, ready, deadline, up, "no answer yet");
    return up.future();
  }

  private void poll(
      String name,
      String url,
      Predicate<Answer> ready,
      long deadline,
      Promise<Answer> up,
      String last) {
    if (System.nanoTime() > deadline) {
      up.fail(new IllegalStateException(name + " at " + url + " not ready in time; last: " + last));
      return;
    }
    send(HttpMethod.GET, url, null, null)
        .onComplete(
            ar -> {
              if (ar.succeeded() && ready.test(ar.result())) {
                log.info("{} is up", name);
                up.complete(ar.result());
              } else {
                String seen =
                    ar.succeeded()
                        ? ar.result().status() + " " + ar.result().body()
                        : ar.cause().toString();
                vertx.setTimer(POLL_MILLIS, t -> poll(name, url, ready, deadline, up, seen));
              }
            });
  }

  Future<Void> close() {
    return client.close();
  }
}
