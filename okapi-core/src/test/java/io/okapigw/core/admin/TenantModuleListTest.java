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
 * {@code GET /_/proxy/tenants/{t}/modules} and its query parameters, what Stripes' discovery reads
 * ({@code ?full=true}), with the answers Okapi 6.1.5 gave for the same modules enabled the same way
 * (recorded side by side).
 */
class TenantModuleListTest {

  private static final String LIST = "/_/proxy/tenants/diku/modules";
  private static GatewayFixture gw;

  @BeforeAll
  static void start() {
    gw = new GatewayFixture();
    JsonArray modules =
        new JsonArray(
            """
            [{"id":"mod-users-1.1.0","name":"Users","requires":[],
              "provides":[{"id":"users","version":"15.1"}]},
             {"id":"mod-circ-1.0.0","name":"Circ","requires":[{"id":"users","version":"15.0"}],
              "optional":[{"id":"notes","version":"1.0"}],
              "provides":[{"id":"circ","version":"2.0"},
                {"id":"_ramls","version":"1.0","interfaceType":"system","handlers":[]}]},
             {"id":"mod-notes-3.0.0-SNAPSHOT.7","tags":["t"],
              "provides":[{"id":"notes","version":"1.0","scope":["a"]}]},
             {"id":"folio_users-1.0.100012","name":"UI users","requires":[
              {"id":"users","version":"15.0 16.0","scope":["b"]},{"id":"missing","version":"1.0"}]},
             {"id":"mod-other-1.0.0","provides":[{"id":"other","version":"1.0"}]}]
            """);
    gw.request()
        .body(modules.encode())
        .post("/_/proxy/import/modules?check=false")
        .then()
        .statusCode(204);
    gw.createTenant("diku");
    for (String id :
        List.of(
            "mod-users-1.1.0",
            "mod-notes-3.0.0-SNAPSHOT.7",
            "folio_users-1.0.100012",
            "mod-circ-1.0.0")) {
      gw.request()
          .body(new JsonObject().put("id", id).encode())
          .post(LIST + "?depCheck=false")
          .then()
          .statusCode(201);
    }
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  private static List<String> ids(String query) {
    return gw.request()
        .get(LIST + query)
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .<String>getList("id");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''| folio_users-1.0.100012 mod-circ-1.0.0 mod-notes-3.0.0-SNAPSHOT.7 mod-users-1.1.0",
        "?filter=mod-users| mod-users-1.1.0",
        "?provide=users| mod-users-1.1.0",
        "?provide=users=15.1| mod-users-1.1.0",
        "?require=users| folio_users-1.0.100012 mod-circ-1.0.0",
        "?require=notes| mod-circ-1.0.0",
        "?latest=1| folio_users-1.0.100012 mod-circ-1.0.0 mod-notes-3.0.0-SNAPSHOT.7 mod-users-1.1.0",
        "?npmSnapshot=only| folio_users-1.0.100012 mod-notes-3.0.0-SNAPSHOT.7",
        "?npmSnapshot=false| mod-circ-1.0.0 mod-notes-3.0.0-SNAPSHOT.7 mod-users-1.1.0",
        "?preRelease=false| folio_users-1.0.100012 mod-circ-1.0.0 mod-users-1.1.0",
        "?preRelease=only| folio_users-1.0.100012 mod-notes-3.0.0-SNAPSHOT.7",
        "?orderBy=id| mod-users-1.1.0 mod-notes-3.0.0-SNAPSHOT.7 mod-circ-1.0.0 folio_users-1.0.100012",
        "?orderBy=id&order=asc| folio_users-1.0.100012 mod-circ-1.0.0 mod-notes-3.0.0-SNAPSHOT.7"
            + " mod-users-1.1.0",
        "?provide=notes&scope=a| mod-notes-3.0.0-SNAPSHOT.7",
        "?require=users&scope=b| folio_users-1.0.100012",
      })
  void tenantModules_queryAsOkapi_sameModulesInTheSameOrder(String query, String expected) {
    assertThat(ids(query))
        .containsExactlyElementsOf(expected.isEmpty() ? List.of() : List.of(expected.split(" ")));
  }

  @Test
  void tenantModules_default_idAndTagsOnly_asOkapi() {
    JsonArray summary = new JsonArray(gw.request().get(LIST).asString());
    assertThat(summary)
        .containsExactly(
            new JsonObject().put("id", "folio_users-1.0.100012"),
            new JsonObject().put("id", "mod-circ-1.0.0"),
            new JsonObject()
                .put("id", "mod-notes-3.0.0-SNAPSHOT.7")
                .put("tags", new JsonArray().add("t")),
            new JsonObject().put("id", "mod-users-1.1.0"));
  }

  @Test
  void tenantModules_fullTrue_wholeDescriptorsWithTheirInterfaces() {
    JsonArray full = new JsonArray(gw.request().get(LIST + "?full=true").asString());
    JsonObject circ = full.getJsonObject(1);
    assertThat(circ.getString("id")).isEqualTo("mod-circ-1.0.0");
    assertThat(circ.getString("name")).isEqualTo("Circ");
    assertThat(circ.getJsonArray("provides").getJsonObject(0))
        .isEqualTo(new JsonObject().put("id", "circ").put("version", "2.0"));
    assertThat(circ.getJsonArray("optional")).hasSize(1);
    assertThat(
            full.getJsonObject(2).getJsonArray("provides").getJsonObject(0).getJsonArray("scope"))
        .containsExactly("a");
  }

  @Test
  void tenantModules_dotTrue_theGraphOkapiDraws() {
    gw.request()
        .get(LIST + "?dot=true")
        .then()
        .statusCode(200)
        .contentType("text/plain")
        .body(
            org.hamcrest.Matchers.equalTo(
                """
                digraph okapi {
                  folio_users__1_0_100012 [label="folio_users-1.0.100012"];
                  mod__circ__1_0_0 [label="mod-circ-1.0.0"];
                  mod__notes__3_0_0__SNAPSHOT_7 [label="mod-notes-3.0.0-SNAPSHOT.7"];
                  mod__users__1_1_0 [label="mod-users-1.1.0"];
                  folio_users__1_0_100012 -> mod__users__1_1_0;
                  missing_missing_1_0 [label="missing missing 1.0", color=red];
                  folio_users__1_0_100012 -> missing_missing_1_0;
                  mod__circ__1_0_0 -> mod__users__1_1_0;
                }
                """));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "?full=yes| parameter full must be true or false",
        "?dot=1| parameter dot must be true or false",
        "?latest=x| parameter latest must be an integer",
        "?orderBy=name| unknown orderBy field: name",
        "?provide=users=15| parameter provide: bad interface version '15'",
      })
  void tenantModules_badParameter_400NamingIt(String query, String problem) {
    // Okapi 6.1.5 answers 500 here; a client mistake is a 400 for us
    gw.request().get(LIST + query).then().statusCode(400).body(containsString(problem));
  }

  @Test
  void tenantModules_unknownTenant_404() {
    gw.request().get("/_/proxy/tenants/nosuch/modules?full=true").then().statusCode(404);
  }
}
