package io.okapigw.core.deployment;

import io.okapigw.core.http.HttpError;
import io.okapigw.core.registry.AdminIds;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * A deployment as posted (Okapi's {@code DeploymentDescriptor}): to {@code /_/deployment/modules},
 * or to {@code /_/discovery/modules} with a {@code nodeId}.
 *
 * @param srvcId the module; null if not given
 * @param instId the instance id; null: one is made up
 * @param nodeId the node to deploy on (its id, name or URL); null: this node
 * @param descriptor how to start it; null: the module's {@code launchDescriptor}
 */
public record DeploymentRequest(
    String srvcId, String instId, String nodeId, LaunchDescriptor descriptor) {

  private static final Set<String> FIELDS =
      Set.of("srvcId", "instId", "nodeId", "url", "descriptor");

  /**
   * @throws HttpError 400 for an unknown field or one of another type, a {@code srvcId} that is not
   *     a module id or ids {@link AdminIds} refuses
   */
  public static DeploymentRequest fromJson(JsonObject json) {
    for (String field : json.fieldNames()) {
      if (!FIELDS.contains(field)) {
        throw HttpError.badRequest(
            "Unrecognized field \""
                + field
                + "\" of a deployment (srvcId, instId, nodeId, url, descriptor)");
      }
    }
    String srvcId = text(json, "srvcId");
    if (srvcId != null) {
      AdminIds.checkModuleId("deployment: srvcId", srvcId);
    }
    String instId = text(json, "instId");
    if (instId != null) {
      AdminIds.check("deployment " + srvcId + ": instId", instId);
    }
    Object launch = json.getValue("descriptor");
    if (launch != null && !(launch instanceof JsonObject)) {
      throw HttpError.badRequest("descriptor of a deployment must be an object");
    }
    return new DeploymentRequest(
        srvcId,
        instId,
        text(json, "nodeId"),
        launch == null ? null : LaunchDescriptor.of((JsonObject) launch));
  }

  private static String text(JsonObject json, String field) {
    Object v = json.getValue(field);
    if (v instanceof JsonObject || v instanceof JsonArray) {
      throw HttpError.badRequest(field + " of a deployment must be a string");
    }
    return v == null ? null : String.valueOf(v);
  }

  /**
   * @return this request as sent to the node that deploys it
   */
  JsonObject toJson() {
    JsonObject json = new JsonObject();
    if (srvcId != null) {
      json.put("srvcId", srvcId);
    }
    if (instId != null) {
      json.put("instId", instId);
    }
    if (nodeId != null) {
      json.put("nodeId", nodeId);
    }
    if (descriptor != null) {
      json.put("descriptor", descriptor.json());
    }
    return json;
  }

  /**
   * @return this request with the launch descriptor given
   */
  DeploymentRequest withDescriptor(LaunchDescriptor launch) {
    return new DeploymentRequest(srvcId, instId, nodeId, launch);
  }
}
