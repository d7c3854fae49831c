package io.okapigw.it.differential;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A gateway the steps are sent to: Okapi or ours, known by its base URL and its version. */
final class Target {

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private final String name;
  private final String url;
  private final List<String> ownUrls;
  private final String okapiModule;

  /**
   * @param name for the report
   * @param url its base URL ({@code http://127.0.0.1:PORT})
   * @param version what its {@code /_/version} says: its okapi module is {@code okapi-VERSION}
   */
  Target(String name, String url, String version) {
    this.name = name;
    this.url = url;
    String port = url.substring(url.lastIndexOf(':') + 1);
    this.ownUrls = List.of("http://127.0.0.1:" + port, "http://localhost:" + port);
    this.okapiModule = "okapi-" + version;
  }

  String name() {
    return name;
  }

  String url() {
    return url;
  }

  /**
   * @return what it answered to the step ({@code {okapi}} in its path standing for this gateway's
   *     okapi module id), its own URLs and okapi module id as placeholders
   */
  Answer send(Step step) throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url + step.path().replace("{okapi}", okapiModule)))
            .timeout(Duration.ofSeconds(30))
            .method(
                step.method(),
                step.body() == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(step.body()));
    boolean typed = false;
    for (Map.Entry<String, String> header : step.headers()) {
      request.header(header.getKey(), header.getValue());
      typed |= header.getKey().equalsIgnoreCase("Content-Type");
    }
    if (step.body() != null && !typed) {
      request.header("Content-Type", "application/json");
    }
    HttpResponse<String> response =
        HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(
        response.statusCode(),
        response.headers().firstValue("Location").map(this::neutral).orElse(null),
        response.headers().firstValue("Content-Type").orElse(null),
        neutral(response.body()));
  }

  private String neutral(String text) {
    String result = text;
    for (String own : ownUrls) {
      result = result.replace(own, "{gateway}");
    }
    return result.replace(okapiModule, "okapi-{version}");
  }

  /**
   * @return its version, from {@code /_/version}
   */
  static String version(String url) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/_/version")).GET().build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body().strip();
  }
}
