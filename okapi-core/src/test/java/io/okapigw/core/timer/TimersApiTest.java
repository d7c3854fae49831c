package io.okapigw.core.timer;

import static io.okapigw.core.timer.TimerFiringTest.START;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.FakeScheduler;
import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Okapi's timer API: the same descriptor registered on Okapi 6.1.5 and here gives the same answers
 * (the expected JSON below is Okapi's, as it answered), and PATCH changes, disables and resets
 * timers as Okapi does.
 */
class TimersApiTest {

  /** Three timers: a period with module permissions, a cron in CET, a legacy path. */
  private static final JsonObject DESCRIPTOR =
      new JsonObject(
          """
      {"id":"mod-timer-1.0.0","provides":[
       {"id":"timerthing","version":"1.0","handlers":[{"methods":["GET"],"pathPattern":"/thing",
         "permissionsRequired":[]}]},
       {"id":"_timer","version":"1.0","interfaceType":"system","handlers":[
         {"methods":["POST"],"pathPattern":"/timer/fast","unit":"second","delay":"3",
          "modulePermissions":["a.perm","b.perm"]},
         {"methods":["POST","GET"],"pathPattern":"/timer/cron",
          "schedule":{"cron":"*/1 * * * *","zone":"CET"}},
         {"methods":["PUT"],"path":"/timer/legacy","unit":"hour","delay":"2",
          "permissionsRequired":[]}
       ]}]}""");

  /** Okapi 6.1.5's answer to GET /_/proxy/tenants/t1/timers for DESCRIPTOR. */
  private static final JsonArray OKAPI_LIST =
      new JsonArray(
          """
      [ {
        "id" : "mod-timer_0",
        "routingEntry" : {
          "methods" : [ "POST" ],
          "pathPattern" : "/timer/fast",
          "unit" : "second",
          "delay" : "3",
          "modulePermissions" : [ "a.perm", "b.perm" ]
        },
        "modified" : false
      }, {
        "id" : "mod-timer_1",
        "routingEntry" : {
          "methods" : [ "POST", "GET" ],
          "pathPattern" : "/timer/cron",
          "schedule" : {
            "cron" : "*/1 * * * *",
            "zone" : "CET"
          }
        },
        "modified" : false
      }, {
        "id" : "mod-timer_2",
        "routingEntry" : {
          "methods" : [ "PUT" ],
          "path" : "/timer/legacy",
          "unit" : "hour",
          "delay" : "2",
          "permissionsRequired" : [ ]
        },
        "modified" : false
      } ]""");

  private static final String TIMERS = "/_/proxy/tenants/t1/timers";

  private GatewayFixture gw;

  @BeforeEach
  void start() {
    gw = new GatewayFixture(GatewayOptions.defaults(0), new FakeScheduler(START));
    gw.createTenant("t1");
    gw.addModule(DESCRIPTOR);
    gw.enable("t1", "mod-timer-1.0.0");
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  private JsonArray list() {
    return new JsonArray(
        gw.request()
            .get(TIMERS)
            .then()
            .statusCode(200)
            .contentType("application/json")
            .extract()
            .asString());
  }

  private JsonObject get(String id) {
    return new JsonObject(
        gw.request().get(TIMERS + "/" + id).then().statusCode(200).extract().asString());
  }

  private void patch(String id, String body) {
    gw.request().body(body).patch(TIMERS + "/" + id).then().statusCode(204);
  }

  @Test
  void list_andGet_asOkapi_fieldsAndOrder() {
    JsonArray list = list();
    assertThat(list).isEqualTo(OKAPI_LIST);
    assertThat(list.getJsonObject(0).getJsonObject("routingEntry").fieldNames())
        .containsExactly("methods", "pathPattern", "unit", "delay", "modulePermissions");
    assertThat(get("mod-timer_1")).isEqualTo(OKAPI_LIST.getJsonObject(1));
  }

  @Test
  void unknownTenant_listIsEmpty_getIs404_asOkapi() {
    gw.request().get("/_/proxy/tenants/nosuch/timers").then().statusCode(200).body(equalTo("[ ]"));
    gw.request().get("/_/proxy/tenants/nosuch/timers/mod-timer_0").then().statusCode(404);
  }

  @Test
  void unknownOrMalformedId_404() {
    gw.request()
        .get(TIMERS + "/mod-timer_7")
        .then()
        .statusCode(404)
        .body(containsString("tenant t1 has no timer mod-timer_7"));
    gw.request().get(TIMERS + "/foo").then().statusCode(404);
    gw.request().body("{\"delay\":\"1\"}").patch(TIMERS + "/mod-foo_0").then().statusCode(404);
  }

  @Test
  void patchDelayZero_dropsUnitAndSchedule_marksModified_asOkapi() {
    patch("mod-timer_0", "{\"delay\":\"0\"}");
    assertThat(get("mod-timer_0"))
        .isEqualTo(
            new JsonObject(
                """
        {"id" : "mod-timer_0", "routingEntry" : {"methods" : [ "POST" ],
          "pathPattern" : "/timer/fast", "delay" : "0",
          "modulePermissions" : [ "a.perm", "b.perm" ]}, "modified" : true}"""));
  }

  @Test
  void patchFromTheList_takesATimerDescriptor_andIgnoresOtherRoutingEntryFields() {
    gw.request()
        .body(
            "{\"id\":\"mod-timer_2\",\"routingEntry\":{\"schedule\":"
                + "{\"cron\":\"0 6,18 * * MON\"},\"pathPattern\":\"/other\"}}")
        .patch(TIMERS)
        .then()
        .statusCode(204);
    assertThat(get("mod-timer_2"))
        .isEqualTo(
            new JsonObject(
                """
        {"id" : "mod-timer_2", "routingEntry" : {"methods" : [ "PUT" ], "path" : "/timer/legacy",
          "schedule" : {"cron" : "0 6,18 * * MON"}, "permissionsRequired" : [ ]},
         "modified" : true}"""));
  }

  @Test
  void patchWithoutTiming_resetsToTheDescriptor() {
    patch("mod-timer_1", "{\"unit\":\"minute\",\"delay\":\"5\"}");
    assertThat(get("mod-timer_1").getJsonObject("routingEntry").getString("delay")).isEqualTo("5");
    patch("mod-timer_1", "{}");
    assertThat(get("mod-timer_1")).isEqualTo(OKAPI_LIST.getJsonObject(1));
  }

  @Test
  void patch_badInput_400NamingIt() {
    gw.request()
        .body("{\"unit\":\"week\",\"delay\":\"1\"}")
        .patch(TIMERS + "/mod-timer_1")
        .then()
        .statusCode(400)
        .body(containsString("unit must be one of"));
    gw.request()
        .body("{\"schedule\":{\"cron\":\"bad\"}}")
        .patch(TIMERS + "/mod-timer_1")
        .then()
        .statusCode(400)
        .body(containsString("bad cron 'bad'"));
    gw.request()
        .body("{\"schedule\":{\"cron\":\"* * * * *\",\"zone\":\"Mars/Base\"}}")
        .patch(TIMERS + "/mod-timer_1")
        .then()
        .statusCode(400)
        .body(containsString("unknown zone Mars/Base"));
    gw.request()
        .body("{\"unit\":\"second\",\"delay\":\"x\"}")
        .patch(TIMERS + "/mod-timer_1")
        .then()
        .statusCode(400)
        .body(containsString("delay must be a whole number"));
    gw.request()
        .body("{\"id\":\"mod-timer_0\",\"delay\":\"7\"}")
        .patch(TIMERS + "/mod-timer_1")
        .then()
        .statusCode(400)
        .body(containsString("unknown field id"));
    gw.request().body("{").patch(TIMERS + "/mod-timer_1").then().statusCode(400);
    gw.request()
        .body("{\"id\":\"mod-timer_0\"}")
        .patch(TIMERS)
        .then()
        .statusCode(400)
        .body(containsString("missing routingEntry"));
    gw.request()
        .body("{\"routingEntry\":{\"delay\":\"0\"}}")
        .patch(TIMERS)
        .then()
        .statusCode(400)
        .body(containsString("missing id"));
    assertThat(list()).as("nothing changed").isEqualTo(OKAPI_LIST);
  }

  /** Okapi takes any period (a timer PATCHed to 1 ms called its module ~1,000 times a second). */
  @Test
  void patch_periodUnderOneSecond_400NamingTheMinimum_aSecondIsFine() {
    for (String timing :
        new String[] {
          "{\"unit\":\"millisecond\",\"delay\":\"1\"}",
          "{\"unit\":\"millisecond\",\"delay\":\"999\"}"
        }) {
      gw.request()
          .body(timing)
          .patch(TIMERS + "/mod-timer_0")
          .then()
          .statusCode(400)
          .body(containsString("at least 1 second"));
    }
    assertThat(list()).as("nothing changed").isEqualTo(OKAPI_LIST);
    patch("mod-timer_0", "{\"unit\":\"millisecond\",\"delay\":\"1000\"}");
    patch("mod-timer_1", "{\"unit\":\"second\",\"delay\":\"1\"}");
  }

  @Test
  void disablingTheModule_forgetsItsChangedTimers_asOkapi() {
    patch("mod-timer_2", "{\"unit\":\"second\",\"delay\":\"9\"}");
    gw.request().delete("/_/proxy/tenants/t1/modules/mod-timer-1.0.0").then().statusCode(204);
    assertThat(list()).isEmpty();
    gw.enable("t1", "mod-timer-1.0.0");
    assertThat(get("mod-timer_2")).isEqualTo(OKAPI_LIST.getJsonObject(2));
  }
}
