package io.okapigw.core.server;

import static io.okapigw.core.testing.GatewayFixture.authModule;
import static io.okapigw.core.testing.GatewayFixture.handler;
import static io.okapigw.core.testing.GatewayFixture.module;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.core.admin.AdminOptions;
import io.okapigw.core.config.GatewayOptions;
import io.okapigw.core.testing.GatewayFixture;
import io.okapigw.core.testing.RawClient;
import io.okapigw.core.testing.RawClient.Response;
import io.okapigw.core.testing.TestModule;
import java.io.IOException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Paths that a module (or the admin API's router) would read as another path than the one the
 * gateway routed and authorized are refused before routing; paths in normal form pass as they are.
 * The module here normalizes paths as vert.x-web does: {@code /open/../echo/x} would be served as
 * {@code /echo/x}, which needs a permission {@code /open*} does not.
 */
class PathNormalFormTest {

  @RegisterExtension final GatewayFixture gw = new GatewayFixture();
  private TestModule auth;
  private TestModule paths;

  @BeforeEach
  void start() {
    gw.createTenant("diku");
    auth =
        TestModule.start(
            gw.vertx(),
            router ->
                router
                    .route()
                    .handler(
                        ctx -> {
                          String required = ctx.request().getHeader("X-Okapi-Permissions-Required");
                          ctx.response()
                              .setStatusCode(
                                  required != null && required.contains("echo.read") ? 403 : 202)
                              .end();
                        }));
    paths =
        TestModule.start(
            gw.vertx(),
            router -> {
              router
                  .get("/open*")
                  .handler(ctx -> ctx.response().end("open " + ctx.request().path()));
              router.get("/echo*").handler(ctx -> ctx.response().end("secret"));
              router.get("/spy*").handler(ctx -> ctx.response().end("spy " + ctx.request().path()));
            });
    gw.install("diku", authModule("mod-auth-1.0.0"), auth.url());
    gw.install(
        "diku",
        module(
            "mod-paths-1.0.0",
            "paths",
            handler("GET", "/open*"),
            handler("GET", "/echo*", "echo.read")),
        paths.url());
  }

  private Response get(GatewayFixture gateway, String target) throws IOException {
    try (RawClient client = RawClient.connect(gateway.gateway().port())) {
      return client
          .send("GET " + target + " HTTP/1.1\r\nHost: x\r\nX-Okapi-Tenant: diku\r\n\r\n")
          .response();
    }
  }

  @Test
  void echo_needsItsPermission() throws IOException {
    assertThat(get(gw, "/echo/x").status()).isEqualTo(403);
    assertThat(get(gw, "/open/x").body()).isEqualTo("open /open/x");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/open/../echo/x",
        "/open/./../echo/x",
        "/open/x/../../echo/x",
        "/open/%2e%2e/echo/x",
        "/open/.%2E/echo/x",
        "/open/..;/echo/x",
        "/open/..%2Fecho/x",
        "/open/..%5cecho/x",
        "/open\\..\\echo\\x",
        "/open//../echo/x",
        "/open/%65cho",
        "/..",
        "/open/.",
        "/open/x%2",
        "/open/x%zz",
        "/open/x;y=1",
        "/open;x/y",
        "/open/x;"
      })
  void pathNotInNormalForm_400BeforeRoutingAndAuth(String path) throws IOException {
    Response response = get(gw, path);
    assertThat(response.status()).as(response.toString()).isEqualTo(400);
    assertThat(response.body()).contains("path");
    assertThat(paths.drain()).isEmpty();
    assertThat(auth.drain()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"/open/a.b/...c", "/open/x/", "/open/x%20y%3Bz", "/open/.hidden", "/open/..x"})
  void pathInNormalForm_forwardedAsItIs(String path) throws IOException {
    Response response = get(gw, path + "?q=%2e%2e/x");
    assertThat(response.status()).as(response.toString()).isEqualTo(200);
    assertThat(paths.take().uri()).isEqualTo(path + "?q=%2e%2e/x");
  }

  /**
   * Servlet containers (Spring MVC, JAX-RS) match routes without a segment's {@code ;} parameters:
   * {@code /spy/items/secret;x} would be authorized as {@code /spy/items/{id}} and served as {@code
   * /spy/items/secret}, which needs a permission.
   */
  @Test
  void pathParameters_refusedAsDotSegmentsAre_neverAuthorizedAsAnotherRoute() throws IOException {
    gw.install(
        "diku",
        module(
            "mod-spy-1.0.0",
            "spy",
            handler("GET", "/spy/items/{id}"),
            handler("GET", "/spy/items/secret", "echo.read")),
        paths.url());
    assertThat(get(gw, "/spy/items/secret").status()).isEqualTo(403);
    assertThat(get(gw, "/spy/items/other").body()).isEqualTo("spy /spy/items/other");
    paths.drain();
    Response response = get(gw, "/spy/items/secret;x");
    assertThat(response.status()).as(response.toString()).isEqualTo(400);
    assertThat(response.body()).contains("';'");
    assertThat(paths.drain()).isEmpty();
  }

  @Test
  void invokePath_withDotSegments_400() throws IOException {
    assertThat(get(gw, "/_/invoke/tenant/diku/open/../echo/x").status()).isEqualTo(400);
    assertThat(paths.drain()).isEmpty();
  }

  /**
   * Routed as disabling a module of diku ({@code .../modules/{moduleId}} with {@code ..}), the
   * admin API's router, which normalizes, would delete the tenant.
   */
  @Test
  void adminPath_routedAsOneEndpoint_neverServedAsAnother() throws IOException {
    try (RawClient client = RawClient.connect(gw.gateway().port())) {
      client.send("DELETE /_/proxy/tenants/diku/modules/.. HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(client.response().status()).isEqualTo(400);
      client.send("DELETE /_/proxy/tenants/diku/modules/%2E%2E HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(client.response().status()).isEqualTo(400);
    }
    gw.request().get("/_/proxy/tenants/diku").then().statusCode(200);
  }

  @Test
  void adminNotPublic_pathsClimbingIntoTheAdminApi_400() throws IOException {
    try (GatewayFixture closed =
        new GatewayFixture(
            GatewayOptions.defaults(0).withAdmin(new AdminOptions(0, "127.0.0.1", false)))) {
      assertThat(get(closed, "/_/invoke/tenant/supertenant/../../proxy/tenants").status())
          .isEqualTo(400);
      assertThat(get(closed, "/_/proxy/health/../tenants").status()).isEqualTo(400);
      assertThat(get(closed, "/x/../_/proxy/tenants").status()).isEqualTo(400);
      closed.request().get("/_/proxy/health").then().statusCode(200);
    }
  }
}
