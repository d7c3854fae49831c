package io.okapigw.core.pull;

import io.okapigw.core.http.HttpError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another Okapi (or anything speaking Okapi's {@code /_/version} and {@code /_/proxy/modules}) that
 * descriptors are pulled from, called as Okapi's {@code PullManager} calls it: {@code GET
 * /_/version}, then {@code GET /_/proxy/modules?full=true} with the ids to leave out as its body.
 * Bounded: connecting, the whole answer in time, and in size on the wire and again decoded (502
 * past the limit, the connection reset); each descriptor as an admin request body (400). Decoding
 * and parsing run on a worker thread.
 */
final class RemoteRegistry {

  /** How much of an answer that is not 200 its error message quotes. */
  private static final int QUOTED = 2000;

  private final Vertx vertx;
  private final HttpClient client;
  private final Duration timeout;
  private final long maxBytes;
  private final long maxDescriptorBytes;

  /**
   * @param timeout how long connecting, and then each whole answer, may take
   * @param maxBytes the largest answer read, on the wire and decoded
   * @param maxDescriptorBytes the largest descriptor accepted
   */
  RemoteRegistry(Vertx vertx, Duration timeout, long maxBytes, long maxDescriptorBytes) {
    this.vertx = vertx;
    // decoded here, not by the client: it would inflate a whole network read before we could count
    this.client =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setDecompressionSupported(false)
                .setConnectTimeout((int) timeout.toMillis()));
    this.timeout = timeout;
    this.maxBytes = maxBytes;
    this.maxDescriptorBytes = maxDescriptorBytes;
  }

  /**
   * @return the remote's version (the body of its {@code /_/version}); fails unless it answers 200
   */
  Future<String> version(String base) {
    return get(base, "_/version", null)
        .compose(
            body ->
                body.status() == 200
                    ? Future.succeededFuture(body.text())
                    : Future.failedFuture(
                        HttpError.badRequest(
                            "pull for "
                                + base
                                + " returned status "
                                + body.status()
                                + "\n"
                                + body.quoted())));
  }

  /**
   * @param skip the ids the remote leaves out (Okapi's body of {@code GET /_/proxy/modules})
   * @return the remote's descriptors, in full; 400 naming the URL if it answers anything else or a
   *     descriptor larger than an admin request body; 502 if the answer is too large
   */
  Future<List<JsonObject>> modules(String base, List<String> skip) {
    return get(base, "_/proxy/modules?full=true", new JsonArray(List.copyOf(skip)).encode())
        .compose(
            body -> {
              if (body.status() != 200) {
                return Future.failedFuture(
                    HttpError.badRequest(
                        "pull from " + base + ": status " + body.status() + "\n" + body.quoted()));
              }
              return vertx.executeBlocking(
                  () -> PulledAnswer.descriptors(base, body.body(), maxDescriptorBytes), false);
            });
  }

  private record Answer(int status, Buffer body) {
    String text() {
      return body.toString();
    }

    String quoted() {
      String text = text();
      return text.length() <= QUOTED ? text : text.substring(0, QUOTED) + "...";
    }
  }

  private Future<Answer> get(String base, String path, String body) {
    String url = (base.endsWith("/") ? base : base + "/") + path;
    RequestOptions options;
    try {
      options =
          new RequestOptions()
              .setMethod(HttpMethod.GET)
              .setAbsoluteURI(url)
              .putHeader("Accept-Encoding", "gzip, deflate");
    } catch (RuntimeException e) {
      return Future.failedFuture(HttpError.badRequest("pull: bad URL " + base));
    }
    return client
        .request(options)
        .compose(r -> body == null ? r.send() : r.send(body))
        .compose(response -> read(base, response))
        .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The answer as sent, at most {@link #maxBytes}; then decoded on a worker, as far. */
  private Future<Answer> read(String base, HttpClientResponse response) {
    Buffer raw = Buffer.buffer();
    return Future.<Void>future(
            done -> {
              response.handler(
                  chunk -> {
                    if (raw.length() + (long) chunk.length() > maxBytes) {
                      done.tryFail(PulledAnswer.tooLarge(base, maxBytes));
                      response.handler(null);
                      response.request().reset();
                    } else {
                      raw.appendBuffer(chunk);
                    }
                  });
              response.exceptionHandler(done::tryFail);
              response.endHandler(v -> done.tryComplete());
            })
        .compose(
            v ->
                vertx.executeBlocking(
                    () ->
                        PulledAnswer.decode(
                            base, response.getHeader("Content-Encoding"), raw, maxBytes),
                    false))
        .map(decoded -> new Answer(response.statusCode(), decoded));
  }

  Future<Void> close() {
    return client.close();
  }
}
