package io.okapigw.authtoken.store.pg;

import static io.okapigw.authtoken.TestModule.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.AuthStoreContractTest;
import io.okapigw.authtoken.store.RevokedSession;
import io.okapigw.authtoken.store.StoreChange;
import io.okapigw.testsupport.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The store contract on PostgreSQL (a real server, see {@link TestPostgres}), and NOTIFY between
 * instances.
 */
class PgAuthStoreTest extends AuthStoreContractTest {
  private static String uri;

  @BeforeAll
  static void database() {
    uri = TestPostgres.get().createDatabase();
  }

  @Override
  protected Future<AuthStore> openStore(Vertx vertx) {
    return PgAuthStore.open(vertx, uri);
  }

  @Test
  void open_twice_schemaCreationIsIdempotent() {
    AuthStore second = await(openStore(vertx));
    await(second.insertUser(user("u1", "alice")));
    assertThat(await(store.findUser(tenant, "u1"))).isEqualTo(user("u1", "alice"));
    await(second.close());
  }

  @Test
  void changes_byAnotherInstance_areAnnounced() throws Exception {
    LinkedBlockingQueue<StoreChange> seen = new LinkedBlockingQueue<>();
    store.changeHandler(
        change -> {
          if (tenant.equals(change.tenant())) {
            seen.add(change);
          }
        });
    AuthStore other = await(openStore(vertx));
    await(other.insertUser(user("u1", "alice")));
    await(other.setPermissions(tenant, "u1", List.of("x")));
    await(other.replacePermissionSets(tenant, "mod-a-1", List.of(set("mod-a-1", "a.all", "a.1"))));
    await(other.revokeSession(new RevokedSession(tenant, "s1", NOW)));
    assertThat(List.of(poll(seen), poll(seen), poll(seen), poll(seen)))
        .containsExactly(
            new StoreChange(StoreChange.Kind.USER, tenant, "u1", null),
            new StoreChange(StoreChange.Kind.USER, tenant, "u1", null),
            new StoreChange(StoreChange.Kind.PERMISSION_SETS, tenant, null, null),
            new StoreChange(StoreChange.Kind.SESSION_REVOKED, tenant, "s1", NOW));
    await(other.close());
  }

  @Test
  void failedWrite_isNotAnnounced() throws Exception {
    LinkedBlockingQueue<StoreChange> seen = new LinkedBlockingQueue<>();
    store.changeHandler(
        change -> {
          if (tenant.equals(change.tenant())) {
            seen.add(change);
          }
        });
    await(store.insertUser(user("u1", "alice")));
    assertThat(poll(seen)).isNotNull();
    store.insertUser(user("u2", "alice")).otherwiseEmpty().await();
    await(store.setPermissions(tenant, "u1", List.of("y")));
    assertThat(poll(seen).subject()).isEqualTo("u1");
    assertThat(seen).isEmpty();
  }

  private static StoreChange poll(LinkedBlockingQueue<StoreChange> queue)
      throws InterruptedException {
    return queue.poll(1, TimeUnit.MINUTES);
  }
}
