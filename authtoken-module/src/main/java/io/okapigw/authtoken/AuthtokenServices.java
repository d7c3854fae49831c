package io.okapigw.authtoken;

import io.okapigw.authtoken.filter.AuthFilter;
import io.okapigw.authtoken.filter.TokenOperators;
import io.okapigw.authtoken.gateway.GatewayNotifier;
import io.okapigw.authtoken.login.LoginService;
import io.okapigw.authtoken.lookup.GatewayUserSource;
import io.okapigw.authtoken.lookup.LookupClient;
import io.okapigw.authtoken.lookup.UserLookup;
import io.okapigw.authtoken.password.PasswordHasher;
import io.okapigw.authtoken.perms.Operators;
import io.okapigw.authtoken.perms.PermissionSets;
import io.okapigw.authtoken.session.Sessions;
import io.okapigw.authtoken.store.AuthStore;
import io.okapigw.authtoken.store.RevokedSession;
import io.okapigw.authtoken.store.StoreChange;
import io.okapigw.authtoken.throttle.ClientAddresses;
import io.okapigw.authtoken.throttle.LoginThrottle;
import io.okapigw.authtoken.token.RevokedSessions;
import io.okapigw.authtoken.token.SigningKey;
import io.okapigw.authtoken.token.TokenService;
import io.okapigw.authtoken.users.Bootstrap;
import io.okapigw.authtoken.users.UserDirectory;
import io.okapigw.authtoken.users.UserService;
import io.okapigw.authtoken.users.UserSource;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;

/**
 * The module's parts, wired once per verticle.
 *
 * @param options settings
 * @param clock the time tokens, sessions and locks are measured by
 * @param store the store
 * @param signingKey the signing key
 * @param tokens token issue and verification
 * @param hasher password hashing
 * @param gateway gateway invalidation
 * @param permissionSets the tenants' permission sets
 * @param directory the filter's user cache
 * @param revoked logged-out sessions
 * @param users user logic
 * @param login login logic
 * @param sessions logouts of cookie sessions
 * @param clients the address a login comes from
 * @param filter the auth decision
 * @param operators who the caller granting permissions is, from its token
 * @param lookups HTTP to the gateway for {@code --user-lookup gateway}, else {@code null}
 */
record AuthtokenServices(
    AuthtokenOptions options,
    Clock clock,
    AuthStore store,
    SigningKey signingKey,
    TokenService tokens,
    PasswordHasher hasher,
    GatewayNotifier gateway,
    PermissionSets permissionSets,
    UserDirectory directory,
    RevokedSessions revoked,
    UserService users,
    LoginService login,
    Sessions sessions,
    ClientAddresses clients,
    AuthFilter filter,
    Operators operators,
    LookupClient lookups) {

  static AuthtokenServices create(
      Vertx vertx, AuthtokenOptions o, Clock clock, AuthStore store, SigningKey key) {
    TokenService tokens = new TokenService(key, clock, o.tokens());
    PasswordHasher hasher = new PasswordHasher(vertx, o.passwords());
    GatewayNotifier gateway =
        GatewayNotifier.create(vertx, o.invalidation(), tokens::anonymousToken);
    PermissionSets sets = new PermissionSets(store);
    UserDirectory directory = new UserDirectory(store, sets);
    RevokedSessions revoked = new RevokedSessions(clock);
    UserService users = new UserService(store, directory, hasher, gateway, sets);
    LoginService.LoginContext context =
        new LoginService.LoginContext(store, hasher, tokens, revoked, gateway, clock, o.tokens());
    LoginService login = new LoginService(context, new LoginThrottle(o.loginThrottle(), clock));
    LookupClient lookups = o.userLookup() == UserLookup.GATEWAY ? new LookupClient(vertx) : null;
    UserSource local = UserSource.local(directory);
    UserSource source =
        lookups == null ? local : new GatewayUserSource(lookups, tokens, sets, local);
    AuthFilter filter = new AuthFilter(tokens, source, sets, revoked);
    return new AuthtokenServices(
        o,
        clock,
        store,
        key,
        tokens,
        hasher,
        gateway,
        sets,
        directory,
        revoked,
        users,
        login,
        new Sessions(context, login),
        ClientAddresses.of(o.loginThrottle()),
        filter,
        new TokenOperators(tokens, source, sets, revoked),
        lookups);
  }

  /** Loads revocations, follows other instances' changes, creates the bootstrap users. */
  Future<Void> start() {
    store.changeHandler(this::changed);
    return store
        .revokedSessions(clock.instant())
        .onSuccess(revoked::addAll)
        .compose(v -> new Bootstrap(users).run(options.bootstrap()));
  }

  /** Forgets expired revocations and refresh tokens. */
  Future<Void> purge() {
    revoked.purge();
    return store.purgeExpired(clock.instant());
  }

  Future<Void> close() {
    return gateway
        .close()
        .eventually(hasher::close)
        .eventually(() -> lookups == null ? Future.succeededFuture() : lookups.close())
        .eventually(store::close);
  }

  private void changed(StoreChange change) {
    switch (change.kind()) {
      case USER -> directory.invalidate(change.tenant(), change.subject());
      case PERMISSION_SETS -> permissionSets.invalidate(change.tenant());
      case SESSION_REVOKED ->
          revoked.add(new RevokedSession(change.tenant(), change.subject(), change.until()));
      default -> {
        directory.invalidateAll();
        permissionSets.invalidateAll();
        store.revokedSessions(clock.instant()).onSuccess(revoked::addAll);
      }
    }
  }
}
