package io.okapigw.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.okapigw.perf.process.GatewayCluster;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Three gateway nodes in separate JVMs, clustered on 127.0.0.1. */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ClusterTest {

  private static Vertx vertx;
  private static HttpServer module;
  private static GatewayCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    module = vertx.createHttpServer().requestHandler(req -> req.response().end("hello"))
        .listen(0, "127.0.0.1").await();
    cluster = GatewayCluster.start(Jars.gateway(), 3, List.of());
    String node1 = cluster.url(0);
    given().baseUri(node1).body("{\"id\":\"diku\"}").post("/_/proxy/tenants")
        .then().statusCode(201);
    given().baseUri(node1).body("{\"id\":\"mod-hello-1.0.0\",\"provides\":[{\"id\":\"hello\","
            + "\"version\":\"1.0\",\"handlers\":[{\"methods\":[\"GET\"],\"pathPattern\":\"/hello\"}]}]}")
        .post("/_/proxy/modules").then().statusCode(201);
    given().baseUri(node1).body("{\"srvcId\":\"mod-hello-1.0.0\",\"url\":\"http://127.0.0.1:"
        + module.actualPort() + "\"}").post("/_/discovery/modules").then().statusCode(201);
    given().baseUri(node1).body("{\"id\":\"mod-hello-1.0.0\"}")
        .post("/_/proxy/tenants/diku/modules").then().statusCode(201);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
    if (vertx != null) {
      vertx.close().await();
    }
  }

  @Test
  void registeredOnNode1_routesThroughEveryNodeAtOnce() {
    for (int i = 0; i < 3; i++) {
      given().baseUri(cluster.url(i)).header("X-Okapi-Tenant", "diku").get("/hello")
          .then().statusCode(200).body(equalTo("hello"));
      given().baseUri(cluster.url(i)).get("/_/proxy/tenants/diku/modules")
          .then().body("[0].id", equalTo("mod-hello-1.0.0"));
    }
  }

  @Test
  void invalidateOnOneNode_acknowledgedByAllMembers() {
    given().baseUri(cluster.url(1)).body("{\"tenant\":\"diku\"}")
        .post("/_/proxy/auth-cache/invalidate").then().statusCode(204);
  }

  @Test
  void nodeKilledMidLoad_othersServeEveryRequest_andItRejoins() throws Exception {
    HttpClientAgent client = vertx.createHttpClient();
    AtomicInteger sent = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    List<String> survivors = List.of(cluster.url(0), cluster.url(1));
    Future<Void> load = Future.all(List.of(loop(client, survivors, 8, 1500, sent, failed),
        loop(client, survivors, 8, 1500, sent, failed))).mapEmpty();
    while (sent.get() < 500) {
      TimeUnit.MILLISECONDS.sleep(10);
    }
    cluster.kill(2);
    load.await(3, TimeUnit.MINUTES);
    assertThat(sent.get()).isEqualTo(3000);
    assertThat(failed.get()).isZero();
    cluster.awaitMembers(2);
    given().baseUri(cluster.url(0)).header("X-Okapi-Tenant", "diku").get("/hello")
        .then().statusCode(200);
    cluster.restart(2, 3);
    given().baseUri(cluster.url(2)).header("X-Okapi-Tenant", "diku").get("/hello")
        .then().statusCode(200).body(equalTo("hello"));
  }

  /** {@code count} requests, {@code parallel} at a time, round-robin over {@code urls}. */
  private static Future<Void> loop(HttpClientAgent client, List<String> urls, int parallel,
      int count, AtomicInteger sent, AtomicInteger failed) {
    AtomicInteger left = new AtomicInteger(count);
    return Future.all(java.util.stream.IntStream.range(0, parallel)
        .mapToObj(i -> next(client, urls, left, sent, failed)).toList()).mapEmpty();
  }

  private static Future<Void> next(HttpClientAgent client, List<String> urls, AtomicInteger left,
      AtomicInteger sent, AtomicInteger failed) {
    if (left.getAndDecrement() <= 0) {
      return Future.succeededFuture();
    }
    int n = sent.incrementAndGet();
    return client.request(new RequestOptions().setMethod(HttpMethod.GET)
            .setAbsoluteURI(urls.get(n % urls.size()) + "/hello")
            .putHeader("X-Okapi-Tenant", "diku"))
        .compose(HttpClientRequest::send)
        .compose(resp -> resp.body().map(resp.statusCode()))
        .transform(ar -> {
          if (ar.failed() || ar.result() != 200) {
            failed.incrementAndGet();
          }
          return next(client, urls, left, sent, failed);
        });
  }
}
