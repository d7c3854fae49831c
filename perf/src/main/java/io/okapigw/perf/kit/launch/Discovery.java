package io.okapigw.perf.kit.launch;

import io.okapigw.folio.register.SuperAdmin;
import io.okapigw.perf.kit.probe.PrometheusText;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * The instances of a module in a gateway's discovery, changed through the admin API as an operator
 * does (the same calls on ours and on Okapi), with the super admin's token. Blocking.
 */
public final class Discovery {

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private final String gatewayUrl;
  private final String token;

  /**
   * @param token the super admin's token (the admin API protected), or null
   */
  public Discovery(String gatewayUrl, String token) {
    this.gatewayUrl = gatewayUrl;
    this.token = token;
  }

  /**
   * Replaces every instance of {@code srvcId} with the instances at {@code urls} ({@code instId}
   * {@code srvcId-1}, {@code -2}, ...).
   *
   * @throws IllegalStateException naming the call the gateway refused
   */
  public void replace(String srvcId, List<String> urls) throws IOException, InterruptedException {
    String path = "/_/discovery/modules/" + srvcId;
    expect(send(HttpRequest.newBuilder(uri(path)).DELETE()), "DELETE " + path, 204);
    for (int i = 0; i < urls.size(); i++) {
      JsonObject instance =
          new JsonObject()
              .put("srvcId", srvcId)
              .put("instId", srvcId + "-" + (i + 1))
              .put("url", urls.get(i));
      HttpRequest.Builder post =
          HttpRequest.newBuilder(uri("/_/discovery/modules"))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(instance.encode()));
      expect(send(post), "POST /_/discovery/modules " + urls.get(i), 201);
    }
  }

  /**
   * @return what the gateway learned of instance {@code instId} of {@code srvcId} ({@code learned}
   *     of {@code GET /_/discovery/health/{srvcId}/{instId}?learned=true}); empty if it has not
   *     called it
   * @throws IllegalStateException if the gateway refused the call
   */
  public JsonObject learned(String srvcId, String instId) throws IOException, InterruptedException {
    String path = "/_/discovery/health/" + srvcId + "/" + instId + "?learned=true";
    HttpResponse<String> answer = send(HttpRequest.newBuilder(uri(path)).GET());
    expect(answer, "GET " + path, 200);
    JsonObject learned = new JsonObject(answer.body()).getJsonObject("learned");
    return learned == null ? new JsonObject() : learned;
  }

  /**
   * @return how often the gateway has taken the instance at {@code instanceUrl} out of the choice,
   *     stalled or ejected ({@code okapi_module_stalls_total} and {@code
   *     okapi_module_ejections_total} in {@code /_/metrics}): read without checking the instance,
   *     which {@link #learned} does and which waits for its timeout when the instance hangs
   * @throws IllegalStateException if the gateway refused the call
   */
  public long takenOut(String instanceUrl) throws IOException, InterruptedException {
    HttpResponse<String> answer = send(HttpRequest.newBuilder(uri("/_/metrics")).GET());
    expect(answer, "GET /_/metrics", 200);
    return Math.round(
        PrometheusText.sum(answer.body(), "okapi_module_stalls_total", "instance", instanceUrl)
            + PrometheusText.sum(
                answer.body(), "okapi_module_ejections_total", "instance", instanceUrl));
  }

  private HttpResponse<String> send(HttpRequest.Builder request)
      throws IOException, InterruptedException {
    request.timeout(Duration.ofSeconds(30)).header("X-Okapi-Tenant", SuperAdmin.TENANT);
    if (token != null) {
      request.header("X-Okapi-Token", token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create(gatewayUrl + path);
  }

  private static void expect(HttpResponse<String> answer, String call, int status) {
    if (answer.statusCode() != status) {
      throw new IllegalStateException(
          call + " answered " + answer.statusCode() + ", not " + status + ": " + answer.body());
    }
  }
}
