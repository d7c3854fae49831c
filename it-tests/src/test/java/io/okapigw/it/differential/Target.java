package io.okapigw.it.differential;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
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

  private final String url;
  private final List<String> ownUrls;
  private final String okapiModule;
  private final String version;
  private final JsonObject node;

  private Target(String url, String version, JsonObject node) {
    this.url = url;
    String port = url.substring(url.lastIndexOf(':') + 1);
    this.ownUrls = List.of("http://127.0.0.1:" + port, "http://localhost:" + port);
    this.okapiModule = "okapi-" + version;
    this.version = version;
    this.node = node;
  }

  /**
   * @param url its base URL ({@code http://127.0.0.1:PORT})
   * @return the gateway there, its version ({@code /_/version}: its okapi module is {@code
   *     okapi-VERSION}) and first node ({@code /_/discovery/nodes}) read
   */
  static Target connect(String url) throws IOException, InterruptedException {
    String version = get(url + "/_/version").strip();
    JsonObject node = new JsonArray(get(url + "/_/discovery/nodes")).getJsonObject(0);
    return new Target(url, version, node);
  }

  private static String get(String uri) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(uri)).GET().build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
  }

  String version() {
    return version;
  }

  /**
   * @return what it answered to the step ({@code {okapi}} in its path standing for this gateway's
   *     okapi module id, {@code {node}} and {@code {nodeUrl}} in its path or body for its first
   *     node's id and URL), its own URLs, node id and okapi module id as placeholders
   */
  Answer send(Step step) throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url + own(step.path())))
            .timeout(Duration.ofSeconds(30))
            .method(
                step.method(),
                step.body() == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(own(step.body())));
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

  /** {@code {okapi}}, {@code {node}} and {@code {nodeUrl}} as this gateway has them. */
  private String own(String text) {
    return text.replace("{okapi}", okapiModule)
        .replace("{nodeUrl}", node.getString("url"))
        .replace("{node}", node.getString("nodeId"));
  }

  private String neutral(String text) {
    String result = text;
    for (String own : ownUrls) {
      result = result.replace(own, "{gateway}");
    }
    result = result.replace('"' + node.getString("nodeId") + '"', "\"{node}\"");
    return result.replace(okapiModule, "okapi-{version}");
  }
}
