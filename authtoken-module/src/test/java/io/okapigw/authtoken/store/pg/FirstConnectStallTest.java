package io.okapigw.authtoken.store.pg;

import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.testsupport.StallingProxy;
import io.okapigw.testsupport.TestPostgres;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store opens when its database's first connect stalls (issue 48, seen in the compose cluster
 * on a busy machine): the pool's wait times out while that connect is pending, Vert.x 5's pool
 * throws a NullPointerException cancelling it and never completes the call; the store gives that
 * pool up after {@link PgAuthStore#FIRST_CALL} and opens with a new one. Before, {@code open} never
 * completed.
 */
class FirstConnectStallTest {

  /** Far beyond the two tries it takes (20 s for the stalled one), a hang guard. */
  private static final long OPEN_LIMIT_SECONDS = 120;

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    // bounded: a pool stuck in the driver's failure would keep close from completing
    vertx
        .close()
        .toCompletionStage()
        .toCompletableFuture()
        .completeOnTimeout(null, 30, TimeUnit.SECONDS)
        .get();
  }

  @Test
  void firstConnectNeverAnswered_storeOpensWithANewPool() throws Exception {
    TestPostgres postgres = TestPostgres.get();
    String uri = postgres.createDatabase();
    try (StallingProxy proxy = StallingProxy.start("127.0.0.1", postgres.port(), 1)) {
      String stalled = uri.replace(":" + postgres.port() + "/", ":" + proxy.port() + "/");
      assertThat(stalled).as("URI through the proxy").isNotEqualTo(uri);

      AuthStore store =
          PgAuthStore.open(vertx, stalled).await(OPEN_LIMIT_SECONDS, TimeUnit.SECONDS);

      assertThat(store.findUser("diku", "nobody").await(30, TimeUnit.SECONDS)).isNull();
      assertThat(proxy.accepted())
          .as("connections: the stalled one, then the new pool's")
          .isGreaterThan(1);
      store.close().await(30, TimeUnit.SECONDS);
    }
  }
}
