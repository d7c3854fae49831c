package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.UUID;

/**
 * A running instance of a module, as registered through {@code /_/discovery/modules}.
 *
 * @param srvcId the module id
 * @param instId the instance id, unique per module
 * @param url the instance's base URL ({@code http://host:port})
 */
public record DeploymentDescriptor(String srvcId, String instId, String url) {

  /**
   * Parses and validates a deployment; a missing {@code instId} gets a generated one.
   *
   * @throws HttpError 400 naming the problem
   */
  public static DeploymentDescriptor fromJson(JsonObject json) {
    String srvcId = JsonFields.requiredString(json, "srvcId", "deployment");
    String instId = JsonFields.optionalString(json, "instId", "deployment");
    String url = JsonFields.requiredString(json, "url", "deployment " + srvcId);
    checkUrl(srvcId, url);
    return new DeploymentDescriptor(
        srvcId,
        instId == null || instId.isBlank() ? UUID.randomUUID().toString() : instId,
        url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
  }

  private static void checkUrl(String srvcId, String url) {
    try {
      URI uri = new URI(url);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null) {
        throw HttpError.badRequest(
            "deployment " + srvcId + ": url must be http(s)://host[:port], was " + url);
      }
    } catch (URISyntaxException e) {
      throw HttpError.badRequest("deployment " + srvcId + ": invalid url " + url);
    }
  }

  public JsonObject toJson() {
    return new JsonObject().put("srvcId", srvcId).put("instId", instId).put("url", url);
  }
}
