package io.okapigw.authtoken;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.OkapiDriver.Route;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 42's grant rules side by side with the reference itself: every case of {@link
 * AssignPermissionsTest} (a tenant admin holding {@code authtoken.all} and {@code okapi.*}, a clerk
 * and immutable permissions, holders of {@code perms.users.assign.okapi} or {@code okapi.all}, a
 * module token's {@code extra_permissions}, the anonymous caller) asked of this module and of
 * FOLIO's real mod-permissions 6.5.0 with the same permission sets; the answers (status, refusal
 * text with the operating user's id in its place) and what is stored afterwards are the same, but
 * for the differences {@link AssignRules} documents, each asserted as it is. Needs mod-permissions
 * built by {@code ../shared/recipes/folio-auth-chain.sh} ({@code -Dokapigw.mod-permissions=JAR});
 * skipped with a notice without it.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class ModPermissionsSideBySideTest {
  private static final String AUTHTOKEN = "mod-authtoken-1.0.0";
  private static final Route PUT_PERMISSIONS = Route.of(AUTHTOKEN, "perms.users.item.put");

  @TempDir static Path dir;
  private static Vertx vertx;
  private static TestModule module;
  private static OkapiDriver okapi;
  private static RealModPermissions reference;

  /**
   * One grant: a caller holding {@code holds} (its token adding {@code extras} as a module's
   * permissions; {@code holds == null}: the anonymous caller) gives a user who has {@code has}
   * exactly {@code grant}.
   */
  private record Case(
      String name, List<String> holds, List<String> extras, List<String> has, List<String> grant) {}

  /** What a side answered and kept: refusal text with the caller's id as {@code <caller>}. */
  private record Outcome(String answer, List<String> stored) {}

  /**
   * Issue 42's finding itself: a tenant admin PUTs its own permissions plus {@code okapi.all}.
   * mod-permissions 6.5.0 grants it: {@code putPermsUsersbyIdHandle} stores the new list first and
   * then, in the same transaction, reads the operating user's permissions, which now hold {@code
   * okapi.all}. This module refuses it, as it refuses the same grant to anyone else.
   */
  private static final Case SELF_GRANT =
      new Case(
          "tenant admin gives itself okapi.all",
          List.of("authtoken.all"),
          List.of(),
          null,
          List.of("authtoken.all", "okapi.all"));

  /** mod-permissions refuses a name no module defines (422); this module stores it. */
  private static final Case UNDEFINED =
      new Case(
          "tenant admin gives a name no module defines",
          List.of("authtoken.all"),
          List.of(),
          List.of(),
          List.of("guarded.get", "no-module-defines-this"));

  /** mod-permissions refuses it as undefined (422); this module as an {@code okapi.*} name. */
  private static final Case UNDEFINED_OKAPI =
      new Case(
          "tenant admin gives an okapi.* name no module defines",
          List.of("authtoken.all"),
          List.of(),
          List.of(),
          List.of("okapi.made-up"));

  private static final List<Case> CASES =
      List.of(
          SELF_GRANT,
          new Case(
              "tenant admin gives another user okapi.* names, defined and sub-permissions",
              List.of("authtoken.all"),
              List.of(),
              List.of(),
              List.of("okapi.env", "okapi.all", "perms.users.assign.okapi")),
          new Case(
              "tenant admin gives what modules define",
              List.of("authtoken.all"),
              List.of(),
              List.of(),
              List.of("guarded.get", "users.all")),
          new Case(
              "clerk without assign.immutable gives what a module defined",
              List.of("perms.users.item.put", "guarded.get"),
              List.of(),
              List.of(),
              List.of("guarded.get", "users.item.post", "authtoken.all")),
          new Case(
              "clerk gives what it holds",
              List.of("perms.users.item.put", "guarded.get"),
              List.of(),
              List.of(),
              List.of("guarded.get")),
          new Case(
              "holder of perms.users.assign.okapi gives okapi.all",
              List.of("authtoken.all", "perms.users.assign.okapi"),
              List.of(),
              List.of(),
              List.of("okapi.all")),
          new Case(
              "holder of okapi.all gives okapi.all",
              List.of("perms.users.item.put", "okapi.all"),
              List.of(),
              List.of(),
              List.of("okapi.all", "okapi.env")),
          new Case(
              "tenant admin keeps a user's okapi.all given before, adds a defined one",
              List.of("authtoken.all"),
              List.of(),
              List.of("okapi.all"),
              List.of("okapi.all", "guarded.get")),
          new Case(
              "tenant admin takes okapi.all away",
              List.of("authtoken.all"),
              List.of(),
              List.of("okapi.all", "guarded.get"),
              List.of("guarded.get")),
          new Case(
              "module token's extra permissions assign okapi and immutable",
              List.of("perms.users.item.put"),
              List.of("perms.users.assign.okapi", "perms.users.assign.immutable"),
              List.of(),
              List.of("okapi.all")),
          new Case(
              "module token's other extra permissions are named in the refusal",
              List.of("perms.users.item.put"),
              List.of("guarded.get"),
              List.of(),
              List.of("okapi.all", "okapi.env")),
          new Case(
              "anonymous caller gives okapi.all",
              null,
              List.of(),
              List.of(),
              List.of("okapi.all")));

  @BeforeAll
  static void start() throws Exception {
    if (!Files.isRegularFile(RealModPermissions.jar())) {
      String notice =
          "NOTICE: mod-permissions 6.5.0 is not built at "
              + RealModPermissions.jar()
              + " (git clone https://github.com/folio-org/mod-permissions, tag v6.5.0, mvn"
              + " -DskipTests package; -Dokapigw.mod-permissions=JAR):"
              + " the side-by-side grant test is skipped";
      System.err.println(notice);
      Assumptions.abort(notice);
    }
    vertx = Vertx.vertx();
    module = TestModule.deploy(vertx, TestModule.options(dir), MutableClock.ofNow());
    okapi = new OkapiDriver(module, TestModule.TENANT);
    reference = RealModPermissions.start(dir);
    JsonArray authtoken =
        new JsonObject(Files.readString(Path.of("descriptors", "ModuleDescriptor.json")))
            .getJsonArray("permissionSets");
    JsonArray okapiSets =
        new JsonArray()
            .add(set("okapi.all", "okapi.env", "okapi.deploy"))
            .add(set("okapi.env", "okapi.env.get"))
            .add(set("okapi.env.get"))
            .add(set("okapi.deploy", "okapi.deployment.post"))
            .add(set("okapi.deployment.post"));
    JsonArray guarded = new JsonArray().add(set("guarded.get"));
    module.postPermissionSets(AUTHTOKEN, authtoken);
    module.postPermissionSets("okapi-6.1.5", okapiSets);
    module.postPermissionSets("mod-guarded-1.0.0", guarded);
    reference.postPermissionSets(AUTHTOKEN, authtoken);
    reference.postPermissionSets("okapi-6.1.5", okapiSets);
    reference.postPermissionSets("mod-guarded-1.0.0", guarded);
  }

  @AfterAll
  static void stop() throws Exception {
    if (reference != null) {
      reference.close();
    }
    if (module != null) {
      module.undeploy();
    }
    if (vertx != null) {
      vertx.close().await(1, TimeUnit.MINUTES);
    }
  }

  private static JsonObject set(String name, String... subPermissions) {
    return new JsonObject()
        .put("permissionName", name)
        .put("displayName", name)
        .put("subPermissions", new JsonArray(List.of(subPermissions)));
  }

  @Test
  void everyGrant_answeredAndStoredAsModPermissions() {
    List<String> differences = new ArrayList<>();
    for (Case c : CASES) {
      if (c == SELF_GRANT) {
        continue;
      }
      Outcome ours = ours(c);
      Outcome real = reference(c);
      System.out.printf("%s%n  ours:            %s%n  mod-permissions: %s%n", c.name(), ours, real);
      if (!ours.equals(real)) {
        differences.add(c.name() + ": ours " + ours + ", mod-permissions " + real);
      }
    }
    assertThat(differences).isEmpty();
  }

  @Test
  void namesNoModuleDefines_modPermissions422_thisModuleStoresThem_butNoOkapiName() {
    Outcome realUndefined = reference(UNDEFINED);
    assertThat(realUndefined.answer())
        .startsWith("422")
        .contains("Attempting to add non-existent permissions no-module-defines-this");
    assertThat(realUndefined.stored()).isEmpty();
    assertThat(ours(UNDEFINED))
        .isEqualTo(new Outcome("granted", List.of("guarded.get", "no-module-defines-this")));

    Outcome realOkapi = reference(UNDEFINED_OKAPI);
    assertThat(realOkapi.answer())
        .startsWith("422")
        .contains("Attempting to add non-existent permissions okapi.made-up");
    assertThat(realOkapi.stored()).isEmpty();
    assertThat(ours(UNDEFINED_OKAPI))
        .isEqualTo(
            new Outcome(
                "403 Cannot add okapi permission okapi.made-up not owned by operating user <caller>",
                List.of()));
  }

  @Test
  void tenantAdminGivesItselfOkapiAll_modPermissionsGrantsIt_thisModuleRefuses() {
    String refusal =
        "403 Cannot add okapi permission okapi.all not owned by operating user <caller>";
    assertThat(ours(SELF_GRANT)).isEqualTo(new Outcome(refusal, List.of("authtoken.all")));
    assertThat(reference(SELF_GRANT))
        .isEqualTo(new Outcome("granted", List.of("authtoken.all", "okapi.all")));
  }

  private static Outcome ours(Case c) {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String caller = null;
    String token = null;
    if (c.holds() != null) {
      caller = module.createUser("caller-" + suffix, "pw", c.holds());
      token = module.token("caller-" + suffix, "pw");
    }
    String user = c.has() == null ? caller : module.createUser("user-" + suffix, "pw", c.has());
    // the filter lets the anonymous token pass to a handler requiring no permission
    Route route =
        c.holds() == null
            ? Route.of(AUTHTOKEN)
            : c.extras().isEmpty()
                ? PUT_PERMISSIONS
                : PUT_PERMISSIONS.withModulePermissions(
                    AUTHTOKEN, c.extras().toArray(String[]::new));
    Response answer =
        okapi.proxy(
            "PUT",
            "/perms/users/" + user + "/permissions",
            token,
            route,
            new JsonArray(c.grant()).encode());
    List<String> stored =
        module
            .request(TestModule.TENANT)
            .get("/perms/users/" + user)
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getList("permissions", String.class);
    return new Outcome(answer(answer, caller), stored);
  }

  private static Outcome reference(Case c) {
    String caller = null;
    String callerPermsUser = null;
    if (c.holds() != null) {
      caller = UUID.randomUUID().toString();
      callerPermsUser = reference.createUser(caller, c.holds());
    }
    String user = c.has() == null ? caller : UUID.randomUUID().toString();
    String permsUser = c.has() == null ? callerPermsUser : reference.createUser(user, c.has());
    Response answer = reference.putPermissions(caller, c.extras(), permsUser, user, c.grant());
    return new Outcome(answer(answer, caller), reference.permissionsOf(permsUser));
  }

  /** Granted (mod-permissions' 200 and this module's 204 alike) or the refusal as answered. */
  private static String answer(Response answer, String caller) {
    int status = answer.statusCode();
    if (status == 200 || status == 204) {
      return "granted";
    }
    String body = answer.asString();
    return status + " " + (caller == null ? body : body.replace(caller, "<caller>"));
  }
}
