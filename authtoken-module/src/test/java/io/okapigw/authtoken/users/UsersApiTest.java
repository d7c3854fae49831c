package io.okapigw.authtoken.users;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;

import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.TestModule;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The users, permissions and tenant-permission endpoints, bootstrap users, and bad input. */
@ExtendWith(VertxExtension.class)
class UsersApiTest {
  @TempDir Path dir;
  private final MutableClock clock = MutableClock.ofNow();
  private Vertx vertx;
  private TestModule module;

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    module = TestModule.deploy(vertx, TestModule.options(dir), clock);
  }

  @AfterEach
  void tearDown() {
    module.undeploy();
  }

  private RequestSpecification json() {
    return module.request(TestModule.TENANT).contentType(ContentType.JSON);
  }

  @Test
  void postUser_201WithLocationAndNoPassword() {
    Response r =
        json()
            .body("{\"id\":\"u-1\",\"username\":\"alice\",\"password\":\"pw\",\"active\":true}")
            .post("/users");
    r.then()
        .statusCode(201)
        .header("Location", "/users/u-1")
        .body("id", equalTo("u-1"))
        .body("username", equalTo("alice"))
        .body("active", equalTo(true));
    assertThat(r.asString()).doesNotContain("pw").doesNotContain("password");
    module.login("alice", "pw").then().statusCode(201);
  }

  @Test
  void postUser_withoutId_generatesOne() {
    String id =
        json()
            .body("{\"username\":\"alice\"}")
            .post("/users")
            .then()
            .statusCode(201)
            .extract()
            .jsonPath()
            .getString("id");
    assertThat(id).matches("[0-9a-f-]{36}");
  }

  @Test
  void postUser_duplicateUsernameOrId_422AndNothingChanged() {
    json()
        .body("{\"id\":\"u-1\",\"username\":\"alice\",\"password\":\"pw\"}")
        .post("/users")
        .then()
        .statusCode(201);
    json()
        .body("{\"id\":\"u-2\",\"username\":\"alice\",\"password\":\"other\"}")
        .post("/users")
        .then()
        .statusCode(422)
        .body(containsString("username already exists"));
    json()
        .body("{\"id\":\"u-1\",\"username\":\"bob\"}")
        .post("/users")
        .then()
        .statusCode(422)
        .body(containsString("user id already exists"));
    module.login("alice", "pw").then().statusCode(201);
    module.login("alice", "other").then().statusCode(422);
    module.login("bob", "x").then().statusCode(422);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{}|username",
        "{\"username\":\"\"}|username",
        "{\"username\":5}|username",
        "{\"username\":\"a\",\"active\":\"yes\"}|active",
        "{\"username\":\"a\",\"id\":\"has space\"}|user id",
        "{\"username\":\"a\",\"id\":\"../etc\"}|user id",
        "{\"username\":\"a\",\"permissions\":\"p\"}|permissions",
        "{\"username\":\"a\",\"permissions\":[1]}|permissions",
        "{\"username\":\"a\",\"password\":\"\"}|password"
      })
  void postUser_invalidField_422NamingIt(String body, String named) {
    json().body(body).post("/users").then().statusCode(422).body(containsString(named));
  }

  @Test
  void postUser_malformedOrMissingInput_400() {
    json()
        .body("{\"username\":")
        .post("/users")
        .then()
        .statusCode(400)
        .body(containsString("JSON"));
    json()
        .body("\"text\"")
        .post("/users")
        .then()
        .statusCode(400)
        .body(containsString("JSON object"));
    module
        .request()
        .contentType(ContentType.JSON)
        .body("{\"username\":\"a\"}")
        .post("/users")
        .then()
        .statusCode(400)
        .body(containsString("X-Okapi-Tenant"));
    json()
        .body("{\"username\":\"" + "x".repeat(70_000) + "\"}")
        .post("/users")
        .then()
        .statusCode(413);
  }

  @Test
  void putUser_changesUsernamePasswordAndActive() {
    String id = module.createUser("alice", "pw", List.of());
    json()
        .body("{\"id\":\"" + id + "\",\"username\":\"alicia\",\"password\":\"new\"}")
        .put("/users/" + id)
        .then()
        .statusCode(204);
    module.login("alice", "pw").then().statusCode(422);
    module.login("alicia", "pw").then().statusCode(422);
    module.login("alicia", "new").then().statusCode(201);
    json().body("{\"active\":false}").put("/users/" + id).then().statusCode(204);
    module.login("alicia", "new").then().statusCode(422);
  }

  @Test
  void putUser_unknownIdMismatchOrTakenUsername_4xx() {
    String id = module.createUser("alice", "pw", List.of());
    module.createUser("bob", "pw", List.of());
    json()
        .body("{\"active\":false}")
        .put("/users/nobody")
        .then()
        .statusCode(404)
        .body(containsString("nobody"));
    json()
        .body("{\"id\":\"other\"}")
        .put("/users/" + id)
        .then()
        .statusCode(422)
        .body(containsString("id"));
    json()
        .body("{\"username\":\"bob\"}")
        .put("/users/" + id)
        .then()
        .statusCode(422)
        .body(containsString("username already exists"));
    module.login("alice", "pw").then().statusCode(201);
  }

  @Test
  void permissions_getAndPut() {
    String id = module.createUser("alice", "pw", List.of("a.1"));
    module.postPermissionSets(
        "mod-a-1",
        new JsonArray()
            .add(
                new JsonObject()
                    .put("permissionName", "set.s")
                    .put("subPermissions", new JsonArray().add("s.1"))));
    module
        .request(TestModule.TENANT)
        .get("/perms/users/" + id)
        .then()
        .statusCode(200)
        .body("userId", equalTo(id))
        .body("permissions", equalTo(List.of("a.1")));
    json()
        .body("[\"set.s\",\"b.2\",\"b.2\"]")
        .put("/perms/users/" + id + "/permissions")
        .then()
        .statusCode(204);
    module
        .request(TestModule.TENANT)
        .queryParam("expanded", "true")
        .get("/perms/users/" + id)
        .then()
        .statusCode(200)
        .body("permissions", equalTo(List.of("set.s", "b.2")))
        .body("expandedPermissions", hasItems("set.s", "s.1", "b.2"));
    json()
        .body("{\"permissions\":[\"c.3\"]}")
        .put("/perms/users/" + id + "/permissions")
        .then()
        .statusCode(204);
    module
        .request(TestModule.TENANT)
        .get("/perms/users/" + id)
        .then()
        .body("permissions", equalTo(List.of("c.3")));
  }

  @Test
  void permissions_badInput_4xx() {
    String id = module.createUser("alice", "pw", List.of("a.1"));
    module.request(TestModule.TENANT).get("/perms/users/nobody").then().statusCode(404);
    json().body("[\"x\"]").put("/perms/users/nobody/permissions").then().statusCode(404);
    json().body("{\"perms\":[]}").put("/perms/users/" + id + "/permissions").then().statusCode(422);
    json().body("[1,2]").put("/perms/users/" + id + "/permissions").then().statusCode(422);
    json().body("[\"x\"").put("/perms/users/" + id + "/permissions").then().statusCode(400);
    module
        .request(TestModule.TENANT)
        .get("/perms/users/" + id)
        .then()
        .body("permissions", equalTo(List.of("a.1")));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"perms\":[]}|moduleId",
        "{\"moduleId\":\"m\",\"perms\":{}}|perms",
        "{\"moduleId\":\"m\",\"perms\":[1]}|perms",
        "{\"moduleId\":\"m\",\"perms\":[{\"displayName\":\"x\"}]}|permissionName",
        "{\"moduleId\":\"m\",\"perms\":[{\"permissionName\":\"p\",\"subPermissions\":\"q\"}]}|subPermissions"
      })
  void tenantPermissions_invalid_422NamingIt(String body, String named) {
    json()
        .body(body)
        .post("/_/tenantPermissions")
        .then()
        .statusCode(422)
        .body(containsString(named));
  }

  @Test
  void tenantPermissions_unknownFieldsIgnored_andEchoed() {
    json()
        .body(
            "{\"moduleId\":\"m-1\",\"perms\":[{\"permissionName\":\"p\",\"displayName\":\"P\",\"visible\":true,"
                + "\"replaces\":[\"q\"]}],\"extra\":1}")
        .post("/_/tenantPermissions")
        .then()
        .statusCode(201)
        .body("moduleId", equalTo("m-1"));
  }

  @Test
  void unknownEndpointOrMethod_404Or405PlainText() {
    module
        .request(TestModule.TENANT)
        .get("/nothing/here")
        .then()
        .statusCode(404)
        .contentType(containsString("text/plain"))
        .body(containsString("no such endpoint"));
    module.request(TestModule.TENANT).delete("/users/x").then().statusCode(not(equalTo(500)));
    module.request().get("/admin/health").then().statusCode(200);
  }

  @Test
  void bootstrap_createsThenUpdatesIdempotently() throws Exception {
    module.undeploy();
    Path other = Files.createDirectories(dir.resolve("boot"));
    module =
        TestModule.deploy(
            vertx,
            TestModule.options(other)
                .withBootstrap(
                    List.of(BootstrapUser.parse("diku:admin:pa:ss:perms.all,users.all"))),
            clock);
    String id = Bootstrap.idOf("diku", "admin");
    module.login("admin", "pa:ss").then().statusCode(201).body("accessToken", not(equalTo("")));
    module
        .request("diku")
        .get("/perms/users/" + id)
        .then()
        .body("permissions", equalTo(List.of("perms.all", "users.all")));
    json().body("{\"active\":false}").put("/users/" + id).then().statusCode(204);
    module.undeploy();
    module =
        TestModule.deploy(
            vertx,
            TestModule.options(other)
                .withBootstrap(List.of(BootstrapUser.parse("diku:admin:new:authtoken.all"))),
            clock);
    module.login("admin", "new").then().statusCode(201);
    module
        .request("diku")
        .get("/perms/users/" + id)
        .then()
        .body("permissions", equalTo(List.of("authtoken.all")));
    module.undeploy();
    module =
        TestModule.deploy(
            vertx,
            TestModule.options(other)
                .withBootstrap(List.of(BootstrapUser.parse("diku:admin:new:authtoken.all"))),
            clock);
    module.login("admin", "new").then().statusCode(201);
  }
}
