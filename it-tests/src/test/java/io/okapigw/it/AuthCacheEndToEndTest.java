package io.okapigw.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.oneOf;

import io.okapigw.cache.AuthCacheOptions;
import io.okapigw.testsupport.OnContext;
import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The auth cache's correctness promises, end to end through the gateway with the real authtoken
 * module. Time moves on a fake clock shared by both; nothing sleeps.
 */
class AuthCacheEndToEndTest {

  private Library library;

  private Library start(AuthCacheOptions cache) throws Exception {
    library = new Library(cache);
    return library;
  }

  @AfterEach
  void stop() {
    if (library != null) {
      library.close();
    }
  }

  @Test
  void userA_neverGetsUserBsHeaders() throws Exception {
    Library lib = start(AuthCacheOptions.defaults());
    String alice = lib.login("diku", "alice");
    String bob = lib.login("diku", "bob");
    for (int i = 0; i < 3; i++) {
      lib.as("diku", alice)
          .get("/items/" + i)
          .then()
          .statusCode(200)
          .body(equalTo(Library.userId("diku", "alice")));
      lib.as("diku", bob)
          .get("/items/" + i)
          .then()
          .statusCode(200)
          .body(equalTo(Library.userId("diku", "bob")));
    }
  }

  @Test
  void tenantX_neverHitsTenantYsEntry() throws Exception {
    Library lib = start(AuthCacheOptions.defaults());
    String alice = lib.login("diku", "alice");
    lib.as("diku", alice).get("/items/1").then().statusCode(200);
    lib.as("other", alice).get("/items/1").then().statusCode(oneOf(401, 403));
    String carol = lib.login("other", "carol");
    lib.as("other", carol)
        .get("/items/1")
        .then()
        .statusCode(200)
        .body(equalTo(Library.userId("other", "carol")));
  }

  @Test
  void expiredToken_401EvenThoughCachedAMomentBefore() throws Exception {
    Library lib = start(AuthCacheOptions.defaults().withTtl(Duration.ofHours(1)));
    String alice = lib.login("diku", "alice");
    lib.as("diku", alice).get("/items/1").then().statusCode(200);
    lib.time.advance(Duration.ofMinutes(10).plusSeconds(1));
    lib.as("diku", alice).get("/items/1").then().statusCode(401);
  }

  @Test
  void permissionRevoked_veryNextRequest403() throws Exception {
    Library lib = start(AuthCacheOptions.defaults());
    String alice = lib.login("diku", "alice");
    lib.as("diku", alice).get("/items/1").then().statusCode(200);
    lib.authtokenDirect("diku")
        .body("[\"chain.get\"]")
        .put("/perms/users/" + Library.userId("diku", "alice") + "/permissions")
        .then()
        .statusCode(204);
    lib.as("diku", alice)
        .get("/items/1")
        .then()
        .statusCode(403)
        .body(containsString("items.item.get"));
  }

  @Test
  void logout_veryNextRequest401() throws Exception {
    Library lib = start(AuthCacheOptions.defaults());
    String alice = lib.login("diku", "alice");
    lib.as("diku", alice).get("/items/1").then().statusCode(200);
    lib.as("diku", alice).post("/authn/logout").then().statusCode(204);
    lib.as("diku", alice).get("/items/1").then().statusCode(401);
  }

  @Test
  void deactivatedUser_veryNextRequestRefused() throws Exception {
    Library lib = start(AuthCacheOptions.defaults());
    String bob = lib.login("diku", "bob");
    lib.as("diku", bob).get("/items/1").then().statusCode(200);
    lib.authtokenDirect("diku")
        .body("{\"active\":false}")
        .put("/users/" + Library.userId("diku", "bob"))
        .then()
        .statusCode(204);
    lib.as("diku", bob).get("/items/1").then().statusCode(oneOf(401, 403));
  }

  @Test
  void hundredConcurrentFirstRequestsOnOneKey_oneAuthCall() throws Exception {
    Library lib = start(AuthCacheOptions.defaults());
    String alice = lib.login("diku", "alice");
    long before = lib.authCalls();
    HttpClientAgent client =
        lib.vertx.createHttpClient(new HttpClientOptions(), new PoolOptions().setHttp1MaxSize(100));
    Future<CompositeFuture> all =
        OnContext.run(
            lib.vertx,
            () -> {
              List<Future<Integer>> calls = new ArrayList<>();
              for (int i = 0; i < 100; i++) {
                calls.add(lib.getAsync(client, alice, "/items/" + i));
              }
              return Future.all(calls);
            });
    List<Integer> statuses = all.await(5, TimeUnit.MINUTES).list();
    assertThat(statuses).hasSize(100).containsOnly(200);
    assertThat(lib.authCalls() - before).isEqualTo(1);
  }

  @Test
  void authModuleDown_staleIfErrorOff_503() throws Exception {
    Library lib = start(AuthCacheOptions.defaults().withTtl(Duration.ofSeconds(10)));
    String alice = lib.login("diku", "alice");
    lib.as("diku", alice).get("/items/1").then().statusCode(200);
    lib.stopAuthModule();
    lib.as("diku", alice).get("/items/1").then().statusCode(200);
    lib.time.advance(Duration.ofSeconds(11));
    lib.as("diku", alice)
        .get("/items/1")
        .then()
        .statusCode(503)
        .body(containsString("auth module mod-authtoken-1.0.0 unavailable"));
  }

  @Test
  void authModuleDown_staleIfErrorOn_cachedAndValidKeepsWorking_othersGet503() throws Exception {
    Library lib =
        start(
            AuthCacheOptions.defaults()
                .withTtl(Duration.ofSeconds(10))
                .withStaleIfError(Duration.ofMinutes(5)));
    String alice = lib.login("diku", "alice");
    String bob = lib.login("diku", "bob");
    lib.as("diku", alice).get("/items/1").then().statusCode(200);
    lib.stopAuthModule();
    lib.time.advance(Duration.ofSeconds(11));
    lib.as("diku", alice)
        .get("/items/1")
        .then()
        .statusCode(200)
        .body(equalTo(Library.userId("diku", "alice")));
    lib.as("diku", bob).get("/items/1").then().statusCode(503);
    lib.time.advance(Duration.ofMinutes(10));
    lib.as("diku", alice).get("/items/1").then().statusCode(503);
  }

  @Test
  void moduleToModuleChain_secondRequestMakesNoAuthCall_firstAtMostNPlusOne() throws Exception {
    Library lib = start(AuthCacheOptions.defaults());
    String alice = lib.login("diku", "alice");
    long before = lib.authCalls();
    lib.as("diku", alice).get("/chain").then().statusCode(200).body(equalTo("/b+/c"));
    long first = lib.authCalls() - before;
    lib.as("diku", alice).get("/chain").then().statusCode(200);
    long second = lib.authCalls() - before - first;
    assertThat(first).isBetween(1L, 3L);
    assertThat(second).isZero();
  }

  @Test
  void cacheOff_everyRequestCallsTheAuthModule() throws Exception {
    Library lib = start(AuthCacheOptions.defaults().withEnabled(false));
    String alice = lib.login("diku", "alice");
    long before = lib.authCalls();
    lib.as("diku", alice).get("/chain").then().statusCode(200);
    lib.as("diku", alice).get("/chain").then().statusCode(200);
    assertThat(lib.authCalls() - before).isEqualTo(6);
  }
}
