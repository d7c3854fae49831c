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
 * @param nodeId the gateway node that started the instance (as the deployment named it: the node's
 *     id, name or URL); null for an instance registered by its URL
 * @param descriptor the launch descriptor it was started from; null for an instance registered by
 *     its URL
 */
public record DeploymentDescriptor(
    String srvcId, String instId, String url, String nodeId, JsonObject descriptor) {

  /** The order every store lists instances in: by module, then by instance id. */
  public static final Comparator<DeploymentDescriptor> ORDER =
      Comparator.comparing(DeploymentDescriptor::srvcId)
          .thenComparing(DeploymentDescriptor::instId);

  /** An instance registered by its URL. */
  public DeploymentDescriptor(String srvcId, String instId, String url) {
    this(srvcId, instId, url, null, null);
  }

  /**
   * Parses and validates a registration by URL: {@code srvcId} (a module id), {@code instId} (Okapi
   * makes one up only when it deploys the module itself; both as {@link AdminIds} says) and an
   * http(s) {@code url}.
   *
   * @throws HttpError 400 naming the problem
   */
  public static DeploymentDescriptor fromJson(JsonObject json) {
    String srvcId = JsonFields.requiredString(json, "srvcId", "deployment");
    AdminIds.checkModuleId("deployment: srvcId", srvcId);
    String instId = JsonFields.requiredString(json, "instId", "deployment " + srvcId);
    AdminIds.check("deployment " + srvcId + ": instId", instId);
    String url = JsonFields.requiredString(json, "url", "deployment " + srvcId);
    checkUrl(srvcId, url);
    return new DeploymentDescriptor(srvcId, instId, url);
  }

  /**
   * Reads an instance as a store keeps it (Okapi's shape, {@link #toJson}), without the checks of a
   * new registration: a row Okapi wrote is taken as it is.
   */
  public static DeploymentDescriptor stored(JsonObject json) {
    return new DeploymentDescriptor(
        json.getString("srvcId"),
        json.getString("instId"),
        json.getString("url"),
        json.getValue("nodeId") instanceof String node ? node : null,
        json.getValue("descriptor") instanceof JsonObject launch ? launch : null);
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
   * @return whether a gateway node started this instance (and stops it when it is removed)
   */
  public boolean deployed() {
    return nodeId != null;
  }

  /**
   * @return this instance at another URL (a deployed one started again elsewhere)
   */
  public DeploymentDescriptor withUrl(String newUrl) {
    return new DeploymentDescriptor(srvcId, instId, newUrl, nodeId, descriptor);
  }

  /**
   * @return the URL requests go to: {@link #url()} without a trailing {@code /}
   */
  public String baseUrl() {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  /**
   * @return the deployment in Okapi's shape and member order ({@code instId, srvcId, nodeId, url,
   *     descriptor}), members without a value left out
   */
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("instId", instId).put("srvcId", srvcId);
    if (nodeId != null) {
      json.put("nodeId", nodeId);
    }
    json.put("url", url);
    if (descriptor != null) {
      json.put("descriptor", descriptor.copy());
    }
    return json;
  }
}
