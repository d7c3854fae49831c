package io.okapigw.folio.register;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.folio.CirculationModules;
import io.okapigw.folio.ModuleDeployment;
import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.register.GatewayRegistration.Module;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Registration through Okapi's admin API, against a stub that answers as Okapi 6.1.5 does, open and
 * protected (the stub plays the auth module too).
 */
class GatewayRegistrationTest {

  private static final SuperAdmin SUPER_ADMIN = new SuperAdmin("super_admin", "s3cret");

  private final Vertx vertx = Vertx.vertx();
  private final OkapiAdminStub okapi = new OkapiAdminStub();
  private String okapiUrl;
  private CirculationModules modules;

  @BeforeEach
  void start() {
    okapiUrl = okapi.start(vertx).await();
    modules = CirculationModules.start(vertx, new CirculationData.Options(42, 20, 20)).await();
  }

  @AfterEach
  void stop() {
    modules.close().compose(v -> okapi.close()).eventually(vertx::close).await();
  }

  @Test
  void registerOn_okapi_acceptsEveryDescriptor_anInstIdEach_enablesAllAndOkapiWithOneInstall() {
    modules.registerOn(okapiUrl, "diku").await();

    List<String> ids = modules.deployments().stream().map(ModuleDeployment::id).toList();
    List<String> expected = new ArrayList<>(List.of("/_/proxy/tenants diku"));
    ids.forEach(id -> expected.add("/_/proxy/modules " + id));
    ids.forEach(id -> expected.add("/_/discovery/modules " + id));
    expected.add(
        "/_/proxy/tenants/diku/install "
            + OkapiAdminStub.OKAPI_MODULE
            + ","
            + String.join(",", ids));
    assertThat(okapi.posts).containsExactlyElementsOf(expected);
    ModuleDeployment users = modules.deployments().get(0);
    assertThat(okapi.instances(users.id()))
        .containsExactly(
            new JsonObject()
                .put("srvcId", users.id())
                .put("instId", users.id())
                .put("url", users.url()));
  }

  @Test
  void registerOn_okapiAlreadySetUp_postsNothing() {
    modules.registerOn(okapiUrl, "diku").await();
    okapi.posts.clear();

    modules.registerOn(okapiUrl, "diku").await();

    assertThat(okapi.posts).isEmpty();
  }

  @Test
  void register_moduleNowAtAnotherUrl_replacesItsInstance() {
    JsonObject descriptor = modules.deployments().get(5).descriptor();
    String id = descriptor.getString("id");
    GatewayRegistration.register(
            vertx, okapiUrl, "diku", List.of(new Module(descriptor, "http://127.0.0.1:1")))
        .await();

    GatewayRegistration.register(
            vertx, okapiUrl, "diku", List.of(new Module(descriptor, "http://127.0.0.1:2")))
        .await();

    assertThat(okapi.instances(id))
        .extracting(o -> ((JsonObject) o).getString("url"))
        .containsExactly("http://127.0.0.1:2");
  }

  @Test
  void register_handlerWithoutPermissionsRequired_failsWithOkapisAnswer() {
    JsonObject descriptor =
        new JsonObject()
            .put("id", "mod-bad-1.0.0")
            .put(
                "provides",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("id", "bad")
                            .put("version", "1.0")
                            .put(
                                "handlers",
                                new JsonArray()
                                    .add(
                                        new JsonObject()
                                            .put("methods", new JsonArray().add("GET"))
                                            .put("pathPattern", "/bad")))));

    assertThatThrownBy(
            () ->
                GatewayRegistration.register(
                        vertx,
                        okapiUrl,
                        "diku",
                        List.of(new Module(descriptor, "http://127.0.0.1:1")))
                    .await())
        .hasMessageContaining("POST /_/proxy/modules answered 400")
        .hasMessageContaining("Missing field permissionsRequired");
  }

  /** The stub is the auth module too: the super admin's login is tried there first. */
  private Module authModule() {
    return new Module(new JsonObject().put("id", "mod-authtoken-1.0.0"), okapiUrl);
  }

  private List<Module> all() {
    List<Module> all = new ArrayList<>(List.of(authModule()));
    modules.deployments().forEach(d -> all.add(d.module()));
    return all;
  }

  private boolean registerAndProtect() {
    GatewayRegistration registration = GatewayRegistration.create(vertx, okapiUrl, SUPER_ADMIN);
    return registration
        .register("diku", all())
        .compose(v -> registration.protectSupertenant(authModule()))
        .eventually(registration::close)
        .await();
  }

  @Test
  void protectSupertenant_open_enablesTheAuthModuleForTheSupertenantLast() {
    okapi.superAdmin("super_admin", "s3cret");
    okapi.notFound.clear();

    assertThat(registerAndProtect()).isTrue();

    assertThat(okapi.notFound)
        .as("lookups answered 404 (an INFO line each in the demo's start)")
        .isEmpty();
    assertThat(okapi.isProtected()).isTrue();
    assertThat(okapi.posts)
        .last()
        .isEqualTo("/_/proxy/tenants/supertenant/modules mod-authtoken-1.0.0");
    assertThat(okapi.posts).hasSize(1 + 2 * all().size() + 1 + 1);
  }

  @Test
  void register_protectedSecondRun_logsInOnceAndPostsNothing() {
    okapi.superAdmin("super_admin", "s3cret");
    registerAndProtect();
    okapi.posts.clear();
    int logins = okapi.logins.get();
    int refusals = okapi.refusals();

    assertThat(registerAndProtect()).isFalse();

    assertThat(okapi.posts).isEmpty();
    assertThat(okapi.logins.get() - logins).isEqualTo(1);
    assertThat(okapi.refusals() - refusals).isEqualTo(1);
  }

  @Test
  void register_tokenExpiredBetweenCalls_logsInAgainAndCarriesOn() {
    okapi.superAdmin("super_admin", "s3cret");
    registerAndProtect();
    GatewayRegistration registration = GatewayRegistration.create(vertx, okapiUrl, SUPER_ADMIN);
    registration.register("diku", all()).await();
    int logins = okapi.logins.get();
    okapi.expireToken();

    registration.register("diku", all()).eventually(registration::close).await();

    assertThat(okapi.logins.get() - logins).isEqualTo(1);
  }

  @Test
  void register_protectedWithoutCredentials_failsSayingTheAdminApiIsProtected() {
    okapi.superAdmin("super_admin", "s3cret");
    registerAndProtect();

    assertThatThrownBy(() -> GatewayRegistration.register(vertx, okapiUrl, "diku", all()).await())
        .hasMessageContaining("GET /_/proxy/tenants answered 401 (expected 200)")
        .hasMessageContaining("the admin API is protected: give the super admin's credentials");
  }

  @Test
  void protectSupertenant_superAdminCannotLogIn_enablesNothing() {
    okapi.superAdmin("super_admin", "another password");

    assertThatThrownBy(this::registerAndProtect)
        .hasMessageContaining("not protecting the admin API")
        .hasMessageContaining("login of super_admin (tenant supertenant)")
        .hasMessageContaining("422")
        .hasMessageNotContaining("s3cret");
    assertThat(okapi.isProtected()).isFalse();
  }

  @Test
  void protectSupertenant_withoutCredentials_failsAndEnablesNothing() {
    GatewayRegistration registration = GatewayRegistration.create(vertx, okapiUrl, null);

    assertThatThrownBy(
            () ->
                registration
                    .protectSupertenant(authModule())
                    .eventually(registration::close)
                    .await())
        .hasMessageContaining("needs the super admin's credentials");
    assertThat(okapi.isProtected()).isFalse();
  }

  @Test
  void superAdmin_toString_hidesThePassword() {
    assertThat(SUPER_ADMIN.toString()).contains("super_admin").doesNotContain("s3cret");
  }
}
