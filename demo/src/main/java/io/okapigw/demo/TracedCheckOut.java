package io.okapigw.demo;

import io.okapigw.folio.data.CirculationData;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;

/**
 * One check-out of the demo library, sent with a W3C {@code traceparent} of its own so that its
 * trace can be found (its trace id is returned), then the item checked in again so the library ends
 * as it began. As the desk does it: diku_admin logs in, then checks an item out to a patron.
 *
 * <p>Blocking: call it from a main thread or a worker, never an event loop.
 */
public final class TracedCheckOut {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String gatewayUrl;
  private final String token;

  private TracedCheckOut(String gatewayUrl, String token) {
    this.gatewayUrl = gatewayUrl;
    this.token = token;
  }

  /**
   * Logs diku_admin in (if the library has its auth module).
   *
   * @param auth whether the tenant has the auth module ({@link DemoOptions#auth()})
   */
  public static TracedCheckOut login(String gatewayUrl, boolean auth) throws IOException {
    if (!auth) {
      return new TracedCheckOut(gatewayUrl, null);
    }
    HttpResponse<String> answer =
        send(
            gatewayUrl,
            "/authn/login",
            new JsonObject()
                .put("username", DemoOptions.ADMIN)
                .put("password", DemoOptions.ADMIN_PASSWORD),
            null,
            null);
    String token = answer.headers().firstValue("X-Okapi-Token").orElse(null);
    if (token == null) {
      throw new IOException("login answered no token");
    }
    return new TracedCheckOut(gatewayUrl, token);
  }

  /**
   * Checks item {@code i} of the library out to active patron {@code i} in a trace of its own, then
   * in again (not traced).
   *
   * @return the check-out's trace id
   * @throws IOException if either answer is not 2xx
   */
  public String checkOutAndIn(CirculationData data, int i) throws IOException {
    String traceId = HexFormat.of().formatHex(randomBytes(16));
    String traceparent = "00-" + traceId + "-" + HexFormat.of().formatHex(randomBytes(8)) + "-01";
    String item = data.itemBarcodes().get(i);
    send(
        gatewayUrl,
        "/circulation/check-out-by-barcode",
        new JsonObject()
            .put("itemBarcode", item)
            .put("userBarcode", data.activePatronBarcodes().get(i))
            .put("servicePointId", data.servicePointId()),
        token,
        traceparent);
    send(
        gatewayUrl,
        "/circulation/check-in-by-barcode",
        new JsonObject().put("itemBarcode", item).put("servicePointId", data.servicePointId()),
        token,
        null);
    return traceId;
  }

  private static HttpResponse<String> send(
      String gatewayUrl, String path, JsonObject body, String token, String traceparent)
      throws IOException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(gatewayUrl + path))
            .timeout(Duration.ofSeconds(30))
            .header("X-Okapi-Tenant", DemoOptions.TENANT)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.encode()));
    if (token != null) {
      request.header("X-Okapi-Token", token);
    }
    if (traceparent != null) {
      request.header("traceparent", traceparent);
    }
    try {
      HttpResponse<String> answer =
          HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (answer.statusCode() / 100 != 2) {
        throw new IOException(path + " answered " + answer.statusCode() + ": " + answer.body());
      }
      return answer;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static byte[] randomBytes(int n) {
    byte[] bytes = new byte[n];
    RANDOM.nextBytes(bytes);
    return bytes;
  }
}
