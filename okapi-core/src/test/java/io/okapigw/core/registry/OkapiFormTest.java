package io.okapigw.core.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What goes into Okapi's tables is what Okapi's beans read (Jackson fails on a property they do not
 * have): the properties of Okapi 6.1.5's beans, at every level, of the types they take.
 */
class OkapiFormTest {

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
    assertThat(OkapiForm.moduleRow(okapi)).isEqualTo(okapi);

    JsonObject ours = okapi.copy().put("ours", true);
    ours.getJsonArray("provides").getJsonObject(0).put("extra", 1);
    ours.getJsonArray("provides")
        .getJsonObject(0)
        .getJsonArray("handlers")
        .getJsonObject(0)
        .put("timeout", "5s");
    ours.getJsonArray("permissionSets").getJsonObject(0).put("tags", new JsonArray());
    ours.getJsonObject("launchDescriptor").put("memory", 1024);
    assertThat(OkapiForm.moduleRow(ours)).isEqualTo(okapi);
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
    assertThat(OkapiForm.moduleRow(odd))
        .isEqualTo(
            new JsonObject()
                .put("id", "mod-x-1.0.0")
                .put("tags", new JsonArray().add("a"))
                .put("provides", new JsonArray().add(new JsonObject().put("id", "x")))
                .put("launchDescriptor", new JsonObject()));
  }

  @Test
  void tenantAndTimerEntry_okapisPropertiesOnly() {
    assertThat(
            OkapiForm.tenantRow(
                new JsonObject().put("id", "diku").put("name", "D").put("region", "eu")))
        .isEqualTo(new JsonObject().put("id", "diku").put("name", "D"));
    JsonObject entry =
        handler()
            .put("unit", "minute")
            .put("delay", "5")
            .put("schedule", new JsonObject().put("cron", "0 * * * *").put("zone", "UTC"));
    assertThat(OkapiForm.routingEntryRow(entry.copy().put("jitter", 3))).isEqualTo(entry);
  }

  /** Posted to Okapi 6.1.5: numbers, booleans and nulls where its beans hold other types. */
  private static final String POSTED =
      """
          {"requires":[],"name":5,"id":"mod-norm-1.0.0","tags":[1,true,null],"replaces":[],"permissionSets":[{"permissionName":"n.all",\
          "visible":"false","subPermissions":[null,"n.get"]}],"provides":[{"handlers":[{"pathPattern":"/n",\
          "methods":["GET"],"permissionsRequired":[],"delegateCORS":false,"level":30,"phase":null},\
          {"methods":["GET"],"pathPattern":"/n/cors","delegateCORS":"true","permissionsRequired":[]}],\
          "id":"n","version":1.0},{"id":"_timer","version":"1.0","interfaceType":"system","handlers":[{"methods":["POST"],\
          "pathPattern":"/n/t","unit":"second","delay":20}]}],"filters":null,"launchDescriptor":{"waitIterations":"3",\
          "dockerPull":"true","env":[{"name":"A","value":1}]},"metadata":{"x":null}}""";

  /** What Okapi 6.1.5 answered (201), as its beans wrote the descriptor back. */
  private static final String OKAPI_WROTE =
      """
          {"id":"mod-norm-1.0.0","name":"5","tags":["1","true",null],"requires":[],"provides":[{"id":"n",\
          "version":"1.0","handlers":[{"methods":["GET"],"pathPattern":"/n","level":"30","permissionsRequired":[]},\
          {"methods":["GET"],"pathPattern":"/n/cors","permissionsRequired":[],"delegateCORS":true}]},\
          {"id":"_timer","version":"1.0","interfaceType":"system","handlers":[{"methods":["POST"],\
          "pathPattern":"/n/t","unit":"second","delay":"20"}]}],"permissionSets":[{"permissionName":"n.all",\
          "subPermissions":[null,"n.get"],"visible":false}],"metadata":{"x":null},"launchDescriptor":{"dockerPull":true,\
          "env":[{"name":"A","value":"1"}],"waitIterations":3}}""";

  @Test
  void module_asOkapi615WritesItBack_fieldsInItsOrder() {
    JsonObject read = OkapiForm.module(new JsonObject(POSTED));
    assertThat(read).isEqualTo(new JsonObject(OKAPI_WROTE));
    assertThat(read.encode()).isEqualTo(new JsonObject(OKAPI_WROTE).encode());
    assertThat(OkapiForm.module(read)).isEqualTo(read);
    assertThat(OkapiForm.unreadable(new JsonObject(POSTED))).isEmpty();
  }

  @Test
  void module_fieldsOkapiDoesNotKnow_keptInOursAsTheyAre_notInOkapisRow() {
    JsonObject ours = new JsonObject(POSTED).put("ours", new JsonObject().put("n", 1));
    ours.getJsonArray("provides").getJsonObject(0).put("extra", JsonObject.of("a", null));
    JsonObject read = OkapiForm.module(ours);
    assertThat(read.getJsonObject("ours")).isEqualTo(new JsonObject().put("n", 1));
    assertThat(read.getJsonArray("provides").getJsonObject(0).getValue("extra"))
        .isEqualTo(JsonObject.of("a", null));
    assertThat(OkapiForm.moduleRow(ours)).isEqualTo(new JsonObject(OKAPI_WROTE));
  }

  /** Each is a 400 on Okapi 6.1.5 (checked: its answer names the same property). */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{'id':'m-1.0.0','provides':[{'id':'a','version':'1.0','handlers':[{'methods':'GET',"
            + "'pathPattern':'/a'}]}]}| provides[0].handlers[0].methods must be an array",
        "{'id':'m-1.0.0','provides':[{'id':'a','version':'1.0','handlers':[{'methods':['GET'],"
            + "'pathPattern':'/a','type':null}]}]}| provides[0].handlers[0].type must not be null",
        "{'id':'m-1.0.0','provides':null}| provides must not be null",
        "{'id':'m-1.0.0','optional':[{'id':'a','version':null}]}"
            + "| optional[0].version must not be null",
        "{'id':'m-1.0.0','uiDescriptor':{'npm':'@folio/m','args':{'a':1}}}"
            + "| uiDescriptor.args must be a string",
        "{'id':'m-1.0.0','provides':[null]}| provides[0] must be an object",
        "{'id':'m-1.0.0','permissionSets':[{'permissionName':'p','visible':'yes'}]}"
            + "| permissionSets[0].visible must be true or false",
      })
  void unreadable_namesWhereAndWhatOkapisBeansTake(String descriptor, String problem) {
    assertThat(OkapiForm.unreadable(new JsonObject(descriptor.replace('\'', '"'))))
        .isEqualTo(Optional.ofNullable(problem));
  }
}
