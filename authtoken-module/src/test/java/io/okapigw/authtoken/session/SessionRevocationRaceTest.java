package io.okapigw.authtoken.session;

import static io.okapigw.authtoken.TestModule.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.okapigw.authtoken.MutableClock;
import io.okapigw.authtoken.gateway.GatewayNotifier;
import io.okapigw.authtoken.gateway.InvalidationOptions;
import io.okapigw.authtoken.http.ApiException;
import io.okapigw.authtoken.login.LoginService;
import io.okapigw.authtoken.login.LoginService.LoginContext;
import io.okapigw.authtoken.login.Session;
import io.okapigw.authtoken.password.PasswordHasher;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.RefreshTokenRecord;
import io.okapigw.authtoken.store.UserRecord;
import io.okapigw.authtoken.store.json.JsonAuthStore;
import io.okapigw.authtoken.store.pg.PgAuthStore;
import io.okapigw.authtoken.throttle.LoginThrottle;
import io.okapigw.authtoken.throttle.LoginThrottleOptions;
import io.okapigw.authtoken.token.RevokedSessions;
import io.okapigw.authtoken.token.SigningKey;
import io.okapigw.authtoken.token.TokenOptions;
import io.okapigw.authtoken.token.TokenService;
import io.okapigw.testsupport.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refresh racing a logout of the same session, hammered on both stores: whatever the order, once
 * the logout has answered, no refresh token of the session is left and none the race issued works;
 * a logout of one session leaves the user's other sessions alone.
 *
 * <p>Each round starts a session of its own (and, for the user, a second one that a logout of the
 * first must not touch), then runs {@code POST /authn/refresh}'s logic against one of the three
 * logouts ({@code /authn/logout} by access token, by refresh cookie, {@code /authn/logout-all}),
 * each side starting after a random number of store round trips, so that the logout lands before,
 * inside and after the refresh's store calls. Rounds run {@value #PARALLEL} at a time.
 */
@ExtendWith(VertxExtension.class)
class SessionRevocationRaceTest {
  private static final String TENANT = "diku";
  private static final int ROUNDS = 2_048;
  private static final int PARALLEL = 16;
  private static final int MAX_DELAY_HOPS = 4;

  @TempDir Path dir;

  private final MutableClock clock = MutableClock.ofNow();
  private final Random random = new Random();
  private AuthStore store;
  private PasswordHasher hasher;
  private TokenService tokens;
  private RevokedSessions revoked;
  private LoginService login;
  private Sessions sessions;

  @AfterEach
  void close() {
    if (hasher != null) {
      await(hasher.close());
    }
    if (store != null) {
      await(store.close());
    }
  }

  @Test
  void jsonStore_refreshRacingLogout_noRefreshTokenOfTheSessionSurvives(Vertx vertx) {
    hammer(vertx, await(JsonAuthStore.open(vertx, dir.resolve("store"))));
  }

  @Test
  void postgres_refreshRacingLogout_noRefreshTokenOfTheSessionSurvives(Vertx vertx) {
    hammer(vertx, await(PgAuthStore.open(vertx, TestPostgres.get().createDatabase())));
  }

  private void hammer(Vertx vertx, AuthStore opened) {
    wire(vertx, opened);
    List<UserRecord> users = new ArrayList<>();
    for (int i = 0; i < PARALLEL; i++) {
      UserRecord user = new UserRecord(TENANT, "u" + i, "user" + i, true, null, List.<String>of());
      await(store.insertUser(user));
      users.add(user);
    }
    Outcomes outcomes = new Outcomes();
    for (int round = 0; round < ROUNDS; round += PARALLEL) {
      List<Future<Void>> batch = new ArrayList<>();
      for (int i = 0; i < PARALLEL; i++) {
        Logout kind = Logout.values()[(round / PARALLEL + i) % Logout.values().length];
        batch.add(round(users.get(i), kind, outcomes));
      }
      await(Future.join(batch).<Void>mapEmpty().recover(e -> Future.succeededFuture()));
      batch.forEach(f -> assertThat(f.cause()).as("a round failed to run").isNull());
    }
    assertThat(outcomes.problems)
        .as(
            "%d rounds (refresh won %d, lost %d): what survived a logout",
            ROUNDS, outcomes.refreshWon.get(), outcomes.refreshLost.get())
        .isEmpty();
    // the race really raced: the refresh came first in some rounds and too late in others
    assertThat(outcomes.refreshWon.get()).isPositive();
    assertThat(outcomes.refreshLost.get()).isPositive();
  }

  private void wire(Vertx vertx, AuthStore opened) {
    store = opened;
    hasher = new PasswordHasher(vertx, PasswordOptions.cheapest());
    SigningKey key = await(SigningKey.load(vertx, dir.resolve("signing.key")));
    tokens = new TokenService(key, clock, TokenOptions.defaults());
    revoked = new RevokedSessions(clock);
    GatewayNotifier gateway =
        GatewayNotifier.create(vertx, InvalidationOptions.defaults(), tokens::anonymousToken);
    LoginContext context =
        new LoginContext(store, hasher, tokens, revoked, gateway, clock, TokenOptions.defaults());
    login = new LoginService(context, new LoginThrottle(LoginThrottleOptions.defaults(), clock));
    sessions = new Sessions(context, login);
  }

  /** The three ways a session ends. */
  private enum Logout {
    BY_ACCESS_TOKEN,
    BY_REFRESH_TOKEN,
    ALL_OF_THE_USER
  }

  /** What the rounds saw. */
  private static final class Outcomes {
    final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    final AtomicInteger refreshWon = new AtomicInteger();
    final AtomicInteger refreshLost = new AtomicInteger();
  }

  private Future<Void> round(UserRecord user, Logout kind, Outcomes outcomes) {
    String sid = UUID.randomUUID().toString();
    String bystanderSid = UUID.randomUUID().toString();
    String refreshToken = UUID.randomUUID().toString();
    String bystanderToken = UUID.randomUUID().toString();
    String access = tokens.issueAccess(user, sid).token();
    Future<Session> refresh =
        store
            .insertRefreshToken(record(user, sid, refreshToken))
            .compose(v -> store.insertRefreshToken(record(user, bystanderSid, bystanderToken)))
            .compose(
                v -> {
                  Future<Session> r = later(() -> login.refresh(TENANT, refreshToken));
                  Future<Void> l = later(() -> logout(kind, user, access, refreshToken));
                  return Future.join(r, l)
                      .<Session>transform(
                          done -> {
                            if (l.failed()) {
                              outcomes.problems.add(kind + ": the logout failed: " + l.cause());
                            }
                            return r.recover(e -> refused(e, outcomes));
                          });
                });
    return refresh.compose(issued -> check(user, kind, sid, issued, bystanderToken, outcomes));
  }

  private Future<Session> refused(Throwable e, Outcomes outcomes) {
    if (!(e instanceof ApiException api && api.status() == 401)) {
      outcomes.problems.add("refresh failed otherwise than 401: " + e);
    }
    return Future.succeededFuture(null);
  }

  /** After the logout answered: nothing of the session left, the user's other session intact. */
  private Future<Void> check(
      UserRecord user,
      Logout kind,
      String sid,
      Session issued,
      String bystanderToken,
      Outcomes outcomes) {
    (issued == null ? outcomes.refreshLost : outcomes.refreshWon).incrementAndGet();
    if (!revoked.isRevoked(TENANT, sid)) {
      outcomes.problems.add(kind + ": session not revoked");
    }
    Future<Void> again =
        issued == null
            ? Future.succeededFuture()
            : login
                .refresh(TENANT, issued.refreshToken())
                .transform(
                    r -> {
                      if (r.succeeded()) {
                        outcomes.problems.add(
                            kind + ": the refresh token issued in the race works");
                      }
                      return Future.succeededFuture();
                    });
    return again
        .compose(v -> store.sessionsOf(TENANT, user.id()))
        .compose(
            left -> {
              if (left.contains(sid)) {
                outcomes.problems.add(kind + ": a refresh token of the session is left");
              }
              return store.findRefreshToken(TENANT, LoginService.sha256(bystanderToken));
            })
        .map(
            bystander -> {
              if (kind != Logout.ALL_OF_THE_USER && bystander == null) {
                outcomes.problems.add(kind + ": the user's other session lost its refresh token");
              }
              return null;
            });
  }

  private Future<Void> logout(Logout kind, UserRecord user, String access, String refreshToken) {
    return switch (kind) {
      case BY_ACCESS_TOKEN -> login.logout(TENANT, access);
      case BY_REFRESH_TOKEN -> sessions.logout(TENANT, refreshToken);
      case ALL_OF_THE_USER -> sessions.logoutAll(TENANT, access);
    };
  }

  /** Starts {@code action} after 0 to {@value #MAX_DELAY_HOPS} round trips to the store. */
  private <T> Future<T> later(Supplier<Future<T>> action) {
    return hops(random.nextInt(MAX_DELAY_HOPS + 1)).compose(v -> action.get());
  }

  private Future<Void> hops(int n) {
    return n == 0
        ? Future.succeededFuture()
        : store.findUser(TENANT, "nobody").compose(u -> hops(n - 1));
  }

  private RefreshTokenRecord record(UserRecord user, String sid, String token) {
    return new RefreshTokenRecord(
        TENANT,
        LoginService.sha256(token),
        user.id(),
        sid,
        clock.instant().plus(TokenOptions.defaults().refreshTtl()),
        false);
  }
}
