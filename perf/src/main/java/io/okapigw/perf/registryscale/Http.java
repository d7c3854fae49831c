package io.okapigw.perf.registryscale;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Admin calls of the run: each must answer 2xx, else it fails naming the call. */
final class Http {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private Http() {}

  static String post(String url, String body) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofMinutes(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    HttpResponse<String> answer = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() / 100 != 2) {
      throw new IOException(
          "POST "
              + url
              + ": "
              + answer.statusCode()
              + " "
              + answer.body().substring(0, Math.min(500, answer.body().length())));
    }
    return answer.body();
  }

  /**
   * @return whether a GET of {@code url} as {@code tenant} answers 200 now
   */
  static boolean serves(String url, String tenant) {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(url))
              .header("X-Okapi-Tenant", tenant)
              .timeout(Duration.ofSeconds(5))
              .GET()
              .build();
      return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
