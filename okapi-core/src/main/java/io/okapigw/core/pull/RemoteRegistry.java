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
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another Okapi (or anything speaking Okapi's {@code /_/version} and {@code /_/proxy/modules}) that
 * descriptors are pulled from, called as Okapi's {@code PullManager} calls it: {@code GET
 * /_/version}, then {@code GET /_/proxy/modules?full=true} with the ids to leave out as its body.
 * Bounded: connecting, the whole answer in time and in size.
 */
final class RemoteRegistry {

  /** Longest answer read (FOLIO's whole registry, every descriptor in full, fits many times). */
  static final long MAX_BYTES = 512L * 1024 * 1024;

  private final HttpClient client;
  private final Duration timeout;

  /**
   * @param timeout how long connecting, and then each whole answer, may take
   */
  RemoteRegistry(Vertx vertx, Duration timeout) {
    this.client =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setDecompressionSupported(true)
                .setConnectTimeout((int) timeout.toMillis()));
    this.timeout = timeout;
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
                                + body.text())));
  }

  /**
   * @param skip the ids the remote leaves out (Okapi's body of {@code GET /_/proxy/modules})
   * @return the remote's descriptors, in full; 400 naming the URL if it answers anything else
   */
  Future<List<JsonObject>> modules(String base, List<String> skip) {
    return get(base, "_/proxy/modules?full=true", new JsonArray(List.copyOf(skip)).encode())
        .map(
            body -> {
              if (body.status() != 200) {
                throw HttpError.badRequest(
                    "pull from " + base + ": status " + body.status() + "\n" + body.text());
              }
              try {
                return new JsonArray(body.text())
                    .stream()
                        .map(
                            o -> {
                              if (!(o instanceof JsonObject md)) {
                                throw new DecodeException("not an object");
                              }
                              return md;
                            })
                        .toList();
              } catch (DecodeException | ClassCastException e) {
                throw HttpError.badRequest(
                    "pull from "
                        + base
                        + ": /_/proxy/modules did not answer a JSON array of module descriptors"
                        + " (not an Okapi?)");
              }
            });
  }

  private record Answer(int status, String text) {}

  private Future<Answer> get(String base, String path, String body) {
    String url = (base.endsWith("/") ? base : base + "/") + path;
    RequestOptions options;
    try {
      options = new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url);
    } catch (RuntimeException e) {
      return Future.failedFuture(HttpError.badRequest("pull: bad URL " + base));
    }
    return client
        .request(options)
        .compose(r -> body == null ? r.send() : r.send(body))
        .compose(this::read)
        .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  private Future<Answer> read(HttpClientResponse response) {
    Buffer body = Buffer.buffer();
    return Future.<Void>future(
            done -> {
              response.handler(
                  chunk -> {
                    if (body.length() + chunk.length() > MAX_BYTES) {
                      response.request().reset();
                      done.tryFail(
                          HttpError.badRequest("pull: answer larger than " + MAX_BYTES + " bytes"));
                    } else {
                      body.appendBuffer(chunk);
                    }
                  });
              response.exceptionHandler(done::tryFail);
              response.endHandler(v -> done.tryComplete());
            })
        .map(v -> new Answer(response.statusCode(), body.toString()));
  }

  Future<Void> close() {
    return client.close();
  }
}
