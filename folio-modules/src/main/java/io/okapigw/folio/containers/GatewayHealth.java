package io.okapigw.folio.containers;

import io.okapigw.folio.containers.Services.Answer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Reads a gateway's {@code GET /_/proxy/health} answer, from either kind of gateway:
 *
 * <ul>
 *   <li>ours answers a JSON object, {@code {"status":"UP","node":..,"members":N}};
 *   <li>Okapi answers a JSON array (the health of its modules, {@code [ ]} before any), with no
 *       member count: how many nodes an Okapi cluster has is the length of {@code GET
 *       /_/discovery/nodes}, an array of {@code {"nodeId","url"}}.
 * </ul>
 */
final class GatewayHealth {

  /** Okapi's list of cluster nodes; our gateway has none (it counts members in its health). */
  static final String OKAPI_NODES = "/_/discovery/nodes";

  private GatewayHealth() {}

  /**
   * @param members cluster members the gateway must see
   * @return whether the answer shows a gateway that is up with at least {@code members} members; an
   *     Okapi answer (an array) counts as up, its members are read by {@link #nodes} (see {@link
   *     #needsNodeCount})
   */
  static boolean up(Answer health, int members) {
    if (health.status() != 200) {
      return false;
    }
    Object body = parse(health);
    if (body instanceof JsonObject json) {
      return json.getInteger("members", 1) >= members;
    }
    return body instanceof JsonArray;
  }

  /**
   * @return whether this health came from an Okapi that must be asked for its nodes
   */
  static boolean needsNodeCount(Answer health, int members) {
    return members > 1 && parse(health) instanceof JsonArray;
  }

  /**
   * @return whether Okapi's {@value #OKAPI_NODES} lists at least {@code members} nodes
   */
  static boolean nodes(Answer nodes, int members) {
    return nodes.status() == 200
        && parse(nodes) instanceof JsonArray list
        && list.size() >= members;
  }

  /**
   * @return the decoded JSON object or array, or {@code null} if the body is neither
   */
  private static Object parse(Answer answer) {
    try {
      return Json.decodeValue(answer.body());
    } catch (DecodeException e) {
      return null;
    }
  }
}
