package io.okapigw.authtoken.store;

import static io.okapigw.authtoken.TestModule.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.authtoken.http.ApiException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The contract every {@link AuthStore} keeps; run by one subclass per implementation. Each test
 * uses a tenant of its own, so a store may be shared between tests.
 */
@ExtendWith(VertxExtension.class)
public abstract class AuthStoreContractTest {
  protected static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

  protected Vertx vertx;
  protected AuthStore store;
  protected String tenant;

  /**
   * @return a store; successive calls within a test see the same data
   */
  protected abstract Future<AuthStore> openStore(Vertx vertx);

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    this.store = await(openStore(vertx));
    this.tenant = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  @AfterEach
  void closeStore() {
    await(store.close());
  }

  protected UserRecord user(String id, String username) {
    return new UserRecord(tenant, id, username, true, "$hash$" + id, List.of("a.b", "c.d"));
  }

  @Test
  void insertUser_thenFindByIdAndUsername_returnsIt() {
    UserRecord u = user("u1", "alice");
    await(store.insertUser(u));
    assertThat(await(store.findUser(tenant, "u1"))).isEqualTo(u);
    assertThat(await(store.findUserByUsername(tenant, "alice"))).isEqualTo(u);
  }

  @Test
  void findUser_unknownOrOtherTenant_null() {
    await(store.insertUser(user("u1", "alice")));
    assertThat(await(store.findUser(tenant, "nobody"))).isNull();
    assertThat(await(store.findUser("other", "u1"))).isNull();
    assertThat(await(store.findUserByUsername("other", "alice"))).isNull();
  }

  @Test
  void insertUser_duplicateId_422() {
    await(store.insertUser(user("u1", "alice")));
    assertThatThrownBy(() -> await(store.insertUser(user("u1", "bob"))))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(422))
        .hasMessageContaining("user id already exists");
    assertThat(await(store.findUserByUsername(tenant, "bob"))).isNull();
  }

  @Test
  void insertUser_duplicateUsername_422() {
    await(store.insertUser(user("u1", "alice")));
    assertThatThrownBy(() -> await(store.insertUser(user("u2", "alice"))))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(422))
        .hasMessageContaining("username already exists");
    assertThat(await(store.findUser(tenant, "u2"))).isNull();
  }

  @Test
  void insertUser_sameUsernameInAnotherTenant_allowed() {
    await(store.insertUser(user("u1", "alice")));
    UserRecord other = new UserRecord(tenant + "x", "u1", "alice", true, null, List.of());
    await(store.insertUser(other));
    assertThat(await(store.findUser(tenant + "x", "u1"))).isEqualTo(other);
  }

  @Test
  void updateUser_changesOnlyGivenFields() {
    await(store.insertUser(user("u1", "alice")));
    UserRecord updated = await(store.updateUser(tenant, "u1", new UserUpdate(null, false, null)));
    assertThat(updated)
        .isEqualTo(new UserRecord(tenant, "u1", "alice", false, "$hash$u1", List.of("a.b", "c.d")));
    updated = await(store.updateUser(tenant, "u1", new UserUpdate("alicia", null, "$new")));
    assertThat(await(store.findUser(tenant, "u1")))
        .isEqualTo(updated)
        .isEqualTo(new UserRecord(tenant, "u1", "alicia", false, "$new", List.of("a.b", "c.d")));
  }

  @Test
  void updateUser_renamed_oldUsernameIsFree() {
    await(store.insertUser(user("u1", "alice")));
    await(store.updateUser(tenant, "u1", new UserUpdate("alicia", null, null)));
    assertThat(await(store.findUserByUsername(tenant, "alice"))).isNull();
    assertThat(await(store.findUserByUsername(tenant, "alicia")).id()).isEqualTo("u1");
    await(store.insertUser(user("u2", "alice")));
    assertThat(await(store.findUserByUsername(tenant, "alice")).id()).isEqualTo("u2");
  }

  @Test
  void updateUser_unknown_404() {
    assertThatThrownBy(
            () -> await(store.updateUser(tenant, "nobody", new UserUpdate(null, false, null))))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(404));
  }

  @Test
  void updateUser_usernameTaken_422AndChangesNothing() {
    await(store.insertUser(user("u1", "alice")));
    await(store.insertUser(user("u2", "bob")));
    assertThatThrownBy(
            () -> await(store.updateUser(tenant, "u2", new UserUpdate("alice", false, null))))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(422));
    assertThat(await(store.findUser(tenant, "u2"))).isEqualTo(user("u2", "bob"));
  }

  @Test
  void setPermissions_replacesThem() {
    await(store.insertUser(user("u1", "alice")));
    await(store.setPermissions(tenant, "u1", List.of("x.y")));
    assertThat(await(store.findUser(tenant, "u1")).permissions()).containsExactly("x.y");
    await(store.setPermissions(tenant, "u1", List.of()));
    assertThat(await(store.findUser(tenant, "u1")).permissions()).isEmpty();
  }

  @Test
  void setPermissions_unknownUser_404() {
    assertThatThrownBy(() -> await(store.setPermissions(tenant, "nobody", List.of("x"))))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(404));
  }

  @Test
  void replacePermissionSets_replacesOnlyThatModulesSets() {
    await(
        store.replacePermissionSets(
            tenant, "mod-a-1", List.of(set("mod-a-1", "a.all", "a.1", "a.2"))));
    await(store.replacePermissionSets(tenant, "mod-b-1", List.of(set("mod-b-1", "b.all", "b.1"))));
    await(store.replacePermissionSets(tenant, "mod-a-1", List.of(set("mod-a-1", "a.new", "a.3"))));
    assertThat(await(store.permissionSets(tenant)))
        .containsExactlyInAnyOrder(set("mod-a-1", "a.new", "a.3"), set("mod-b-1", "b.all", "b.1"));
    assertThat(await(store.permissionSets(tenant + "x"))).isEmpty();
  }

  @Test
  void replacePermissionSets_emptyList_removesTheModulesSets() {
    await(store.replacePermissionSets(tenant, "mod-a-1", List.of(set("mod-a-1", "a.all", "a.1"))));
    await(store.replacePermissionSets(tenant, "mod-a-1", List.of()));
    assertThat(await(store.permissionSets(tenant))).isEmpty();
  }

  @Test
  void rotateRefreshToken_marksItUsedAndStoresTheSuccessor_once() {
    await(store.insertRefreshToken(token("h1", "u1", "s1", NOW.plusSeconds(60))));
    assertThat(await(store.findRefreshToken(tenant, "h1")))
        .isEqualTo(token("h1", "u1", "s1", NOW.plusSeconds(60)));
    RefreshTokenRecord next = token("h2", "u1", "s1", NOW.plusSeconds(90));
    assertThat(await(store.rotateRefreshToken(tenant, "h1", next)))
        .isEqualTo(AuthStore.Rotation.ROTATED);
    assertThat(await(store.findRefreshToken(tenant, "h1")).used()).isTrue();
    assertThat(await(store.findRefreshToken(tenant, "h2"))).isEqualTo(next);
    RefreshTokenRecord again = token("h3", "u1", "s1", NOW.plusSeconds(90));
    assertThat(await(store.rotateRefreshToken(tenant, "h1", again)))
        .isEqualTo(AuthStore.Rotation.REUSED);
    assertThat(await(store.rotateRefreshToken(tenant, "unknown", again)))
        .isEqualTo(AuthStore.Rotation.GONE);
    assertThat(await(store.findRefreshToken(tenant, "h3"))).isNull();
  }

  @Test
  void rotateRefreshToken_ofARevokedSession_goneAndStoresNothing() {
    await(store.insertRefreshToken(token("h1", "u1", "s1", NOW.plusSeconds(60))));
    await(store.revokeSession(new RevokedSession(tenant, "s1", NOW.plusSeconds(600))));
    assertThat(await(store.rotateRefreshToken(tenant, "h1", token("h2", "u1", "s1", NOW))))
        .isEqualTo(AuthStore.Rotation.GONE);
    assertThat(await(store.sessionsOf(tenant, "u1"))).isEmpty();
  }

  @Test
  void rotateRefreshToken_concurrently_exactlyOneRotates() {
    await(store.insertRefreshToken(token("h1", "u1", "s1", NOW.plusSeconds(60))));
    List<Future<AuthStore.Rotation>> attempts = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      attempts.add(
          store.rotateRefreshToken(tenant, "h1", token("n" + i, "u1", "s1", NOW.plusSeconds(60))));
    }
    await(Future.all(attempts));
    assertThat(attempts).filteredOn(f -> f.result() == AuthStore.Rotation.ROTATED).hasSize(1);
    assertThat(attempts).filteredOn(f -> f.result() == AuthStore.Rotation.REUSED).hasSize(9);
  }

  @Test
  void deleteRefreshTokens_onlyThoseOfTheUser() {
    await(store.insertRefreshToken(token("h1", "u1", "s1", NOW.plusSeconds(60))));
    await(store.insertRefreshToken(token("h2", "u1", "s2", NOW.plusSeconds(60))));
    await(store.insertRefreshToken(token("h3", "u2", "s3", NOW.plusSeconds(60))));
    await(store.deleteRefreshTokens(tenant, "u1"));
    assertThat(await(store.findRefreshToken(tenant, "h1"))).isNull();
    assertThat(await(store.findRefreshToken(tenant, "h2"))).isNull();
    assertThat(await(store.findRefreshToken(tenant, "h3"))).isNotNull();
  }

  @Test
  void sessionsOf_theUsersSessionsOnceEach_usedTokensToo() {
    await(store.insertRefreshToken(token("h1", "u1", "s1", NOW.plusSeconds(60))));
    await(store.insertRefreshToken(token("h2", "u1", "s1", NOW.plusSeconds(60))));
    await(store.insertRefreshToken(token("h3", "u1", "s2", NOW.plusSeconds(60))));
    await(store.insertRefreshToken(token("h4", "u2", "s3", NOW.plusSeconds(60))));
    // s2 keeps only its used token once its successor has expired
    await(store.rotateRefreshToken(tenant, "h3", token("h5", "u1", "s2", NOW.minusSeconds(1))));
    await(store.purgeExpired(NOW));
    assertThat(await(store.sessionsOf(tenant, "u1"))).containsExactlyInAnyOrder("s1", "s2");
    assertThat(await(store.sessionsOf(tenant, "nobody"))).isEmpty();
    assertThat(await(store.sessionsOf("other" + tenant, "u1"))).isEmpty();
  }

  @Test
  void revokeSession_deletesItsRefreshTokensAndIsListedUntilItEnds() {
    await(store.insertRefreshToken(token("h1", "u1", "s1", NOW.plusSeconds(60))));
    await(store.insertRefreshToken(token("h2", "u1", "s2", NOW.plusSeconds(60))));
    RevokedSession revoked = new RevokedSession(tenant, "s1", NOW.plusSeconds(600));
    await(store.revokeSession(revoked));
    assertThat(await(store.findRefreshToken(tenant, "h1"))).isNull();
    assertThat(await(store.findRefreshToken(tenant, "h2"))).isNotNull();
    assertThat(mine(await(store.revokedSessions(NOW)))).containsExactly(revoked);
    assertThat(mine(await(store.revokedSessions(NOW.plusSeconds(600))))).isEmpty();
  }

  @Test
  void revokeSessionsOf_endsEachSessionOfTheUserAndTheOneNamed_onlyThose() {
    await(store.insertRefreshToken(token("h1", "u1", "s1", NOW.plusSeconds(60))));
    await(store.insertRefreshToken(token("h2", "u1", "s2", NOW.plusSeconds(60))));
    await(store.rotateRefreshToken(tenant, "h2", token("h3", "u1", "s2", NOW.plusSeconds(60))));
    await(store.insertRefreshToken(token("h4", "u2", "s3", NOW.plusSeconds(60))));
    Instant until = NOW.plusSeconds(600);
    assertThat(await(store.revokeSessionsOf(tenant, "u1", "s9", until)))
        .containsExactlyInAnyOrder(
            new RevokedSession(tenant, "s1", until),
            new RevokedSession(tenant, "s2", until),
            new RevokedSession(tenant, "s9", until));
    assertThat(await(store.sessionsOf(tenant, "u1"))).isEmpty();
    assertThat(await(store.findRefreshToken(tenant, "h4"))).isNotNull();
    assertThat(mine(await(store.revokedSessions(NOW))))
        .extracting(RevokedSession::sessionId)
        .containsExactlyInAnyOrder("s1", "s2", "s9");
    assertThat(await(store.revokeSessionsOf(tenant, "nobody", null, until))).isEmpty();
  }

  @Test
  void purgeExpired_removesExpiredTokensAndRevocationsOnly() {
    await(store.insertRefreshToken(token("old", "u1", "s1", NOW.minusSeconds(1))));
    await(store.insertRefreshToken(token("new", "u1", "s2", NOW.plusSeconds(60))));
    await(store.revokeSession(new RevokedSession(tenant, "gone", NOW.minusSeconds(1))));
    await(store.revokeSession(new RevokedSession(tenant, "kept", NOW.plusSeconds(60))));
    await(store.purgeExpired(NOW));
    assertThat(await(store.findRefreshToken(tenant, "old"))).isNull();
    assertThat(await(store.findRefreshToken(tenant, "new"))).isNotNull();
    assertThat(mine(await(store.revokedSessions(NOW.minusSeconds(100)))))
        .extracting(RevokedSession::sessionId)
        .containsExactly("kept");
  }

  @Test
  void reopen_keepsEverythingAcknowledged() {
    await(store.insertUser(user("u1", "alice")));
    await(store.setPermissions(tenant, "u1", List.of("p.1")));
    await(store.replacePermissionSets(tenant, "mod-a-1", List.of(set("mod-a-1", "a.all", "a.1"))));
    await(store.insertRefreshToken(token("h1", "u1", "s1", NOW.plusSeconds(60))));
    await(store.revokeSession(new RevokedSession(tenant, "s9", NOW.plusSeconds(60))));
    await(store.close());
    store = await(openStore(vertx));
    assertThat(await(store.findUser(tenant, "u1")))
        .isEqualTo(user("u1", "alice").withPermissions(List.of("p.1")));
    assertThat(await(store.permissionSets(tenant))).containsExactly(set("mod-a-1", "a.all", "a.1"));
    assertThat(await(store.findRefreshToken(tenant, "h1")))
        .isEqualTo(token("h1", "u1", "s1", NOW.plusSeconds(60)));
    assertThat(mine(await(store.revokedSessions(NOW))))
        .extracting(RevokedSession::sessionId)
        .containsExactly("s9");
  }

  @Test
  void manyConcurrentWrites_allAcknowledgedAndReadable() {
    List<Future<Void>> writes = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      writes.add(store.insertUser(user("u" + i, "user" + i)));
    }
    await(Future.all(writes));
    for (int i = 0; i < 200; i += 37) {
      assertThat(await(store.findUserByUsername(tenant, "user" + i)).id()).isEqualTo("u" + i);
    }
  }

  private List<RevokedSession> mine(List<RevokedSession> all) {
    return all.stream().filter(s -> s.tenant().equals(tenant)).toList();
  }

  protected static PermissionSetRecord set(String module, String name, String... subs) {
    return new PermissionSetRecord(module, name, List.of(subs));
  }

  protected RefreshTokenRecord token(String hash, String userId, String session, Instant expires) {
    return new RefreshTokenRecord(tenant, hash, userId, session, expires, false);
  }
}
