package io.okapigw.core.registry;

import io.okapigw.core.http.HttpError;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Comparator;

/**
 * A running instance of a module, as registered through {@code /_/discovery/modules}. As in Okapi
 * it need not belong to a registered module: deployment tools post instances and descriptors in
 * either order, and an instance outlives its module's removal.
 *
 * @param srvcId the module id
 * @param instId the instance id, unique across all services (as in Okapi)
 * @param url the instance's base URL as posted ({@code http://host:port}, a trailing {@code /}
 *     kept, as Okapi keeps and answers it)
 */
public record DeploymentDescriptor(String srvcId, String instId, String url) {

  /** The order every store lists instances in: by module, then by instance id. */
  public static final Comparator<DeploymentDescriptor> ORDER =
      Comparator.comparing(DeploymentDescriptor::srvcId)
          .thenComparing(DeploymentDescriptor::instId);

  /**
   * Parses and validates a deployment: {@code srvcId}, {@code instId} (Okapi makes one up only when
   * it deploys the module itself, which this gateway does not) and an http(s) {@code url}.
   *
   * @throws HttpError 400 naming the problem
   */
  public static DeploymentDescriptor fromJson(JsonObject json) {
    String srvcId = JsonFields.requiredString(json, "srvcId", "deployment");
    String instId = JsonFields.requiredString(json, "instId", "deployment " + srvcId);
    String url = JsonFields.requiredString(json, "url", "deployment " + srvcId);
    checkUrl(srvcId, url);
    return new DeploymentDescriptor(srvcId, instId, url);
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

  /**
   * @return the URL requests go to: {@link #url()} without a trailing {@code /}
   */
  public String baseUrl() {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  /**
   * @return the deployment in Okapi's shape and member order ({@code instId, srvcId, url})
   */
  public JsonObject toJson() {
    return new JsonObject().put("instId", instId).put("srvcId", srvcId).put("url", url);
  }
}
