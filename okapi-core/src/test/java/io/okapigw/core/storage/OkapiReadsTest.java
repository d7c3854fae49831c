package io.okapigw.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows of Okapi's tables read as Okapi reads them. */
class OkapiReadsTest {

  @Test
  void enabledOrder_oursFirst_thenWhatOkapiEnabled_sorted() {
    JsonObject okapiMap =
        new JsonObject().put("mod-a-1", true).put("mod-c-1", true).put("mod-b-1", true);
    assertThat(
            OkapiReads.enabled(
                okapiMap, new JsonArray(List.of("mod-b-1", "mod-gone-1", "mod-a-1"))))
        .containsExactly("mod-b-1", "mod-a-1", "mod-c-1");
    assertThat(OkapiReads.enabled(okapiMap.put("mod-a-1", false), null))
        .containsExactly("mod-b-1", "mod-c-1");
  }

  @Test
  void timerRow_okapisIdSplitAsOkapiSplitsIt_unmodifiedIsNoChange() {
    JsonObject entry = new JsonObject().put("delay", "7");
    JsonObject row =
        new JsonObject()
            .put("id", "test_tenant_mod-foo_2")
            .put("routingEntry", entry)
            .put("modified", true);
    assertThat(OkapiReads.timer(row))
        .hasValueSatisfying(
            p -> {
              assertThat(p.tenant()).isEqualTo("test_tenant");
              assertThat(p.id()).isEqualTo("mod-foo_2");
              assertThat(p.entry()).isEqualTo(entry);
            });
    assertThat(OkapiReads.timer(row.copy().put("modified", false))).isEmpty();
    assertThat(OkapiReads.timer(row.copy().put("id", "mod-foo_2"))).isEmpty();
  }
}
