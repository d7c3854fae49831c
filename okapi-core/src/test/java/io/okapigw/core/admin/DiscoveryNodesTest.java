package io.okapigw.core.admin;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /_/discovery/nodes[/{nodeId}]}: the gateway nodes, each {@code {nodeId, url}} (and the
 * {@code nodeName} given with a {@code PUT}) as Okapi describes a node (a single node here; {@code
 * ClusterTest} in it-tests lists three).
 */
class DiscoveryNodesTest {

  private static GatewayFixture gw;

  @BeforeAll
  static void start() {
    gw = new GatewayFixture();
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  @Test
  void nodes_singleNode_itsIdAndOkapiUrl() {
    gw.request()
        .get("/_/discovery/nodes")
        .then()
        .statusCode(200)
        .body("size()", equalTo(1))
        .body("[0].nodeId", equalTo(gw.gateway().nodeId()))
        .body("[0].url", equalTo(gw.gateway().okapiUrl()));
  }

  @Test
  void node_byIdOrUrl_found() {
    gw.request()
        .get("/_/discovery/nodes/" + gw.gateway().nodeId())
        .then()
        .statusCode(200)
        .body("url", equalTo(gw.gateway().okapiUrl()));
    gw.request()
        .urlEncodingEnabled(false)
        .get(
            "/_/discovery/nodes/"
                + URLEncoder.encode(gw.gateway().okapiUrl(), StandardCharsets.UTF_8))
        .then()
        .statusCode(200)
        .body("nodeId", equalTo(gw.gateway().nodeId()));
  }

  @Test
  void node_named_foundByItsName_idAndUrlUnchangeable() {
    String id = gw.gateway().nodeId();
    String url = gw.gateway().okapiUrl();
    JsonObject node = new JsonObject().put("nodeId", id).put("url", url);
    gw.request()
        .body(node.copy().put("nodeName", "first").encode())
        .put("/_/discovery/nodes/" + id)
        .then()
        .statusCode(200)
        .body("nodeName", equalTo("first"));
    gw.request().get("/_/discovery/nodes/first").then().statusCode(200).body("nodeId", equalTo(id));
    gw.request()
        .body(node.copy().put("nodeId", "other").encode())
        .put("/_/discovery/nodes/" + id)
        .then()
        .statusCode(400)
        .body(containsString("Can not change nodeId for node " + id));
    gw.request()
        .body(node.copy().put("url", "http://elsewhere:1").encode())
        .put("/_/discovery/nodes/" + id)
        .then()
        .statusCode(400)
        .body(containsString("Can not change the URL for node " + id));
    gw.request()
        .body(node.encode())
        .put("/_/discovery/nodes/nope")
        .then()
        .statusCode(404)
        .body(containsString("Node nope not found"));
    gw.request().get("/_/discovery/nodes/first").then().statusCode(200);
    gw.request().body(node.encode()).put("/_/discovery/nodes/" + id).then().statusCode(200);
    gw.request().get("/_/discovery/nodes/first").then().statusCode(404);
  }

  @Test
  void node_unknown_404AsOkapi() {
    gw.request()
        .get("/_/discovery/nodes/nope")
        .then()
        .statusCode(404)
        .body(containsString("Node nope not found"));
  }
}
