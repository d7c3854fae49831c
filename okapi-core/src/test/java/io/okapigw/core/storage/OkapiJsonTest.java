package io.okapigw.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What goes into Okapi's tables is what Okapi's beans read (Jackson fails on a property they do not
 * have): the properties of Okapi 6.1.5's beans, at every level, of the types they take.
 */
class OkapiJsonTest {

  private static JsonObject handler() {
    return new JsonObject()
        .put("methods", new JsonArray().add("GET"))
        .put("pathPattern", "/x")
        .put("permissionsRequired", new JsonArray())
        .put("delegateCORS", true);
  }

  @Test
  void module_okapisPropertiesKept_unknownDroppedAtEveryLevel() {
    JsonObject okapi =
        new JsonObject()
            .put("id", "mod-x-1.0.0")
            .put("name", "X")
            .put(
                "provides",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("id", "x")
                            .put("version", "1.0")
                            .put("handlers", new JsonArray().add(handler()))))
            .put(
                "requires",
                new JsonArray().add(new JsonObject().put("id", "y").put("version", "2.0")))
            .put(
                "permissionSets",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("permissionName", "x.all")
                            .put("subPermissions", new JsonArray().add("x.get"))
                            .put("visible", false)))
            .put("metadata", new JsonObject().put("anything", new JsonObject().put("goes", 1)))
            .put(
                "launchDescriptor",
                new JsonObject()
                    .put("dockerImage", "x:1")
                    .put("dockerCMD", new JsonArray().add("run"))
                    .put("dockerArgs", new JsonObject().put("HostConfig", new JsonObject()))
                    .put("waitIterations", 3));
    assertThat(OkapiJson.module(okapi)).isEqualTo(okapi);

    JsonObject ours = okapi.copy().put("ours", true);
    ours.getJsonArray("provides").getJsonObject(0).put("extra", 1);
    ours.getJsonArray("provides")
        .getJsonObject(0)
        .getJsonArray("handlers")
        .getJsonObject(0)
        .put("timeout", "5s");
    ours.getJsonArray("permissionSets").getJsonObject(0).put("tags", new JsonArray());
    ours.getJsonObject("launchDescriptor").put("memory", 1024);
    assertThat(OkapiJson.module(ours)).isEqualTo(okapi);
  }

  @Test
  void valuesOkapiCannotRead_dropped() {
    JsonObject odd =
        new JsonObject()
            .put("id", "mod-x-1.0.0")
            .put("name", new JsonObject().put("en", "X"))
            .put("tags", new JsonArray().add("a").add(new JsonObject()))
            .put(
                "provides",
                new JsonArray().add("not an object").add(new JsonObject().put("id", "x")))
            .put("replaces", "mod-old")
            .put(
                "launchDescriptor",
                new JsonObject().put("dockerPull", "yes").put("waitIterations", 1.5));
    assertThat(OkapiJson.module(odd))
        .isEqualTo(
            new JsonObject()
                .put("id", "mod-x-1.0.0")
                .put("provides", new JsonArray().add(new JsonObject().put("id", "x")))
                .put("launchDescriptor", new JsonObject()));
  }

  @Test
  void tenantAndTimerEntry_okapisPropertiesOnly() {
    assertThat(
            OkapiJson.tenant(
                new JsonObject().put("id", "diku").put("name", "D").put("region", "eu")))
        .isEqualTo(new JsonObject().put("id", "diku").put("name", "D"));
    JsonObject entry =
        handler()
            .put("unit", "minute")
            .put("delay", "5")
            .put("schedule", new JsonObject().put("cron", "0 * * * *").put("zone", "UTC"));
    assertThat(OkapiJson.routingEntry(entry.copy().put("jitter", 3))).isEqualTo(entry);
  }

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
