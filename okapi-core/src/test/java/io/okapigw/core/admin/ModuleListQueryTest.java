package io.okapigw.core.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.okapigw.core.testing.GatewayFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code GET /_/proxy/modules} and its query parameters, with the answers Okapi 6.1.5 gave for the
 * same modules (the okapi module left out: its version differs).
 */
class ModuleListQueryTest {

  private static GatewayFixture gw;

  @BeforeAll
  static void start() {
    gw = new GatewayFixture();
    JsonArray modules =
        new JsonArray()
            .add(provider("mod-users-1.0.0", "users", "15.0"))
            .add(provider("mod-users-1.1.0", "users", "15.1"))
            .add(provider("mod-users-1.10.0", "users", "15.2"))
            .add(provider("mod-users-1.9.0", "users", "15.1"))
            .add(provider("mod-users-2.0.0-SNAPSHOT.5", "users", "16.0"))
            .add(provider("mod-users-1.2.100012", "users", "15.1"))
            .add(provider("mod-users-10.0.0", "users", "17.0"))
            .add(
                new JsonObject(
                    "{\"id\":\"mod-circ-1.0.0\",\"name\":\"Circ\",\"requires\":[{\"id\":"
                        + "\"users\",\"version\":\"15.0\"}],\"optional\":[{\"id\":\"notes\",\"version\":"
                        + "\"1.0\"}],\"provides\":[{\"id\":\"circ\",\"version\":\"2.0\"},{\"id\":\"_tenant\","
                        + "\"version\":\"2.0\",\"interfaceType\":\"system\"}]}"))
            .add(
                new JsonObject(
                    "{\"id\":\"mod-notes-3.0.0\",\"tags\":[\"t\"],\"provides\":[{\"id\":"
                        + "\"notes\",\"version\":\"1.0\",\"scope\":[\"a\"]}]}"))
            .add(
                new JsonObject(
                    "{\"id\":\"folio_users-1.0.0\",\"name\":\"UI users\",\"requires\":[{"
                        + "\"id\":\"users\",\"version\":\"15.0 16.0\",\"scope\":[\"b\"]}]}"));
    gw.request()
        .body(modules.encode())
        .post("/_/proxy/import/modules?check=false")
        .then()
        .statusCode(204);
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  private static JsonObject provider(String id, String itf, String version) {
    return new JsonObject()
        .put("id", id)
        .put("name", "Users")
        .put("requires", new JsonArray())
        .put(
            "provides",
            new JsonArray().add(new JsonObject().put("id", itf).put("version", version)));
  }

  private static List<String> ids(String query) {
    return gw
        .request()
        .get("/_/proxy/modules" + query)
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .<String>getList("id")
        .stream()
        .filter(id -> !id.startsWith("okapi-"))
        .toList();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''| folio_users-1.0.0 mod-circ-1.0.0 mod-notes-3.0.0 mod-users-1.0.0 mod-users-1.1.0"
            + " mod-users-1.2.100012 mod-users-1.9.0 mod-users-1.10.0 mod-users-2.0.0-SNAPSHOT.5"
            + " mod-users-10.0.0",
        "?filter=mod-users-1| mod-users-1.0.0 mod-users-1.1.0 mod-users-1.2.100012 mod-users-1.9.0"
            + " mod-users-1.10.0",
        "?filter=mod-users-1.1| mod-users-1.1.0",
        "?filter=mod-user| ''",
        "?latest=1| folio_users-1.0.0 mod-circ-1.0.0 mod-notes-3.0.0 mod-users-10.0.0",
        "?latest=2| folio_users-1.0.0 mod-circ-1.0.0 mod-notes-3.0.0 mod-users-2.0.0-SNAPSHOT.5"
            + " mod-users-10.0.0",
        "?latest=0| folio_users-1.0.0 mod-circ-1.0.0 mod-notes-3.0.0 mod-users-10.0.0",
        "?orderBy=id&filter=mod-users-1| mod-users-1.10.0 mod-users-1.9.0 mod-users-1.2.100012"
            + " mod-users-1.1.0 mod-users-1.0.0",
        "?orderBy=id&order=asc&filter=mod-users-1.1| mod-users-1.1.0",
        "?preRelease=only| mod-users-1.2.100012 mod-users-2.0.0-SNAPSHOT.5",
        "?npmSnapshot=false&filter=mod-users| mod-users-1.0.0 mod-users-1.1.0 mod-users-1.9.0"
            + " mod-users-1.10.0 mod-users-2.0.0-SNAPSHOT.5 mod-users-10.0.0",
        "?preRelease=false&npmSnapshot=false&filter=mod-users| mod-users-1.0.0 mod-users-1.1.0"
            + " mod-users-1.9.0 mod-users-1.10.0 mod-users-10.0.0",
        "?provide=users=15.1| mod-users-1.1.0 mod-users-1.2.100012 mod-users-1.9.0",
        "?provide=users=15.1.0| ''",
        "?provide=_tenant| mod-circ-1.0.0",
        "?require=users| folio_users-1.0.0 mod-circ-1.0.0",
        "?require=notes| mod-circ-1.0.0",
        "?require=users&scope=b| folio_users-1.0.0",
        "?provide=notes&scope=a| mod-notes-3.0.0",
        "?provide=notes&scope=b| ''",
        "?filter=mod-users&latest=1&preRelease=false| mod-users-10.0.0",
      })
  void listModules_queryAsOkapi_sameModulesInTheSameOrder(String query, String expected) {
    assertThat(ids(query))
        .containsExactlyElementsOf(expected.isEmpty() ? List.of() : List.of(expected.split(" ")));
  }

  @Test
  void listModules_default_idNameAndTagsOnly_fullTrue_wholeDescriptors() {
    JsonArray summary =
        new JsonArray(gw.request().get("/_/proxy/modules?filter=mod-notes").asString());
    assertThat(summary.getJsonObject(0))
        .isEqualTo(
            new JsonObject().put("id", "mod-notes-3.0.0").put("tags", new JsonArray().add("t")));
    JsonArray full =
        new JsonArray(gw.request().get("/_/proxy/modules?filter=mod-circ&full=true").asString());
    assertThat(full.getJsonObject(0).getJsonArray("optional")).hasSize(1);
    assertThat(full.getJsonObject(0).getString("name")).isEqualTo("Circ");
  }

  @Test
  void listModules_dotTrue_theDependencyGraphAsOkapiDrawsIt() {
    gw.request()
        .get("/_/proxy/modules?dot=true&filter=mod-circ")
        .then()
        .statusCode(200)
        .contentType("text/plain")
        .body(
            org.hamcrest.Matchers.equalTo(
                """
                digraph okapi {
                  mod__circ__1_0_0 [label="mod-circ-1.0.0"];
                  missing_users_15_0 [label="missing users 15.0", color=red];
                  mod__circ__1_0_0 -> missing_users_15_0;
                }
                """));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "?full=yes| parameter full must be true or false",
        "?latest=x| parameter latest must be an integer",
        "?orderBy=name| unknown orderBy field: name",
        "?orderBy=id&order=up| invalid order value: up",
        "?npmSnapshot=bogus| parameter npmSnapshot must be true, false or only",
        "?preRelease=1| parameter preRelease must be true, false or only",
        "?provide=users=15| parameter provide: bad interface version '15'",
        "?require=users=x.y| parameter require: bad interface version 'x.y'",
        "?filter=mod-users-1.x| parameter filter: 'mod-users-1.x' is not a product nor a module id",
      })
  void listModules_badParameter_400NamingIt(String query, String problem) {
    gw.request()
        .get("/_/proxy/modules" + query)
        .then()
        .statusCode(400)
        .body(containsString(problem));
  }
}
