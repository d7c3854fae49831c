package io.okapigw.core.testing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Requests for tenant {@code diku} that must answer within {@link #LIMIT}: a hung request fails its
 * future after that long, so a test waits at most that, never sleeps. The limit is far from a
 * request's latency, even on a busy machine (it was 5 s), and short of {@code proxy.idle-timeout}'s
 * 60 s, after which the gateway itself would answer a jammed request. A JDK client, apart from the
 * gateway's own Vert.x instance.
 */
public final class BoundedHttp {

  public static final Duration LIMIT = Duration.ofSeconds(30);

  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final String baseUrl;

  public BoundedHttp(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  public CompletableFuture<Answer> get(String path) {
    return send(request(path).GET());
  }

  public CompletableFuture<Answer> post(String path, int bodyBytes) {
    return send(request(path).POST(BodyPublishers.ofByteArray(new byte[bodyBytes])));
  }

  /**
   * @return the answer, or a description of the failure (e.g. a timeout) as its body
   */
  public static Answer await(CompletableFuture<Answer> answer) {
    try {
      return answer.get(LIMIT.toMillis() + 1_000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      return Answer.failed(e.getCause());
    } catch (TimeoutException e) {
      return Answer.failed(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * @return every answer, each awaited as {@link #await} does
   */
  public static List<Answer> awaitAll(List<CompletableFuture<Answer>> answers) {
    List<Answer> all = new ArrayList<>();
    answers.forEach(a -> all.add(await(a)));
    return all;
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(baseUrl + path))
        .timeout(LIMIT)
        .header("X-Okapi-Tenant", "diku");
  }

  private CompletableFuture<Answer> send(HttpRequest.Builder request) {
    long start = System.nanoTime();
    return client
        .sendAsync(request.build(), BodyHandlers.ofString())
        .thenApply(r -> new Answer(r.statusCode(), r.body(), millisSince(start)))
        .exceptionally(e -> Answer.failed(e, millisSince(start)));
  }

  private static long millisSince(long start) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  /** A status and body; status -1 when the request failed, its body then says why. */
  public record Answer(int status, String body, long millis) {

    static Answer failed(Throwable e) {
      return failed(e, -1);
    }

    static Answer failed(Throwable e, long millis) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      return new Answer(-1, cause.getClass().getSimpleName() + ": " + cause.getMessage(), millis);
    }

    @Override
    public String toString() {
      return status + " after " + millis + " ms: " + body;
    }
  }
}
