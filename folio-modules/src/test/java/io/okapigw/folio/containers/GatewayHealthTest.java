package io.okapigw.folio.containers;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.folio.containers.Services.Answer;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

/** The register job's reading of {@code /_/proxy/health}: ours (an object), Okapi's (an array). */
class GatewayHealthTest {

  private static Answer answer(int status, String body) {
    return new Answer(status, MultiMap.caseInsensitiveMultiMap(), Buffer.buffer(body));
  }

  @Test
  void up_ourHealthWithEnoughMembers_isUp() {
    Answer health = answer(200, "{\"status\":\"UP\",\"node\":\"n1\",\"members\":3}");

    assertThat(GatewayHealth.up(health, 3)).isTrue();
    assertThat(GatewayHealth.needsNodeCount(health, 3)).isFalse();
  }

  @Test
  void up_ourHealthWithFewerMembers_isNotUp() {
    assertThat(GatewayHealth.up(answer(200, "{\"status\":\"UP\",\"members\":2}"), 3)).isFalse();
  }

  @Test
  void up_ourHealthWithoutMembers_countsAsOne() {
    Answer health = answer(200, "{\"status\":\"UP\"}");

    assertThat(GatewayHealth.up(health, 1)).isTrue();
    assertThat(GatewayHealth.up(health, 2)).isFalse();
  }

  @Test
  void up_okapiEmptyArray_isUp() {
    Answer health = answer(200, "[ ]");

    assertThat(GatewayHealth.up(health, 1)).isTrue();
    assertThat(GatewayHealth.needsNodeCount(health, 1)).as("one node: nothing to count").isFalse();
  }

  @Test
  void up_okapiArrayOfModuleHealths_isUpAndNeedsItsNodesCountedForSeveralMembers() {
    Answer health =
        answer(
            200,
            "[{\"instId\":\"a\",\"srvcId\":\"mod-a-1.0.0\","
                + "\"healthMessage\":\"OK\",\"healthStatus\":true}]");

    assertThat(GatewayHealth.up(health, 3)).isTrue();
    assertThat(GatewayHealth.needsNodeCount(health, 3)).isTrue();
  }

  @Test
  void up_notOk_isNotUp() {
    assertThat(GatewayHealth.up(answer(503, "{\"status\":\"DOWN\",\"members\":1}"), 1)).isFalse();
    assertThat(GatewayHealth.up(answer(404, "[ ]"), 1)).isFalse();
  }

  @Test
  void up_bodyNotJson_isNotUp() {
    Answer health = answer(200, "starting");

    assertThat(GatewayHealth.up(health, 1)).isFalse();
    assertThat(GatewayHealth.needsNodeCount(health, 2)).isFalse();
  }

  @Test
  void nodes_okapiNodeList_countsItsEntries() {
    Answer nodes =
        answer(
            200,
            "[{\"nodeId\":\"a\",\"url\":\"http://a:9130\"},"
                + "{\"nodeId\":\"b\",\"url\":\"http://b:9130\"}]");

    assertThat(GatewayHealth.nodes(nodes, 2)).isTrue();
    assertThat(GatewayHealth.nodes(nodes, 3)).isFalse();
    assertThat(GatewayHealth.nodes(answer(404, "[]"), 1)).isFalse();
    assertThat(GatewayHealth.nodes(answer(200, "{}"), 1)).isFalse();
  }
}
