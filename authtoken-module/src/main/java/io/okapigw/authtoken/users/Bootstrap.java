package io.okapigw.authtoken.users;

import io.okapigw.authtoken.store.UserRecord;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates or updates the {@code --bootstrap} users at start, one after the other. A new user gets
 * the id {@code UUID.nameUUIDFromBytes("TENANT:USERNAME")}; an existing one is made active, gets
 * the given password and exactly the given permissions. Running it again changes nothing but the
 * password's salt, and then does not bother the gateway (a password change alters no auth
 * decision).
 */
public final class Bootstrap {
  private static final Logger LOG = LoggerFactory.getLogger(Bootstrap.class);

  private final UserService users;

  /**
   * @param users user logic
   */
  public Bootstrap(UserService users) {
    this.users = users;
  }

  /**
   * @param bootstrap the users @return done
   */
  public Future<Void> run(List<BootstrapUser> bootstrap) {
    Future<Void> chain = Future.succeededFuture();
    for (BootstrapUser user : bootstrap) {
      chain = chain.compose(v -> apply(user));
    }
    return chain;
  }

  /**
   * @param tenant tenant id
   * @param username login name
   * @return the id a bootstrap user gets when it is created
   */
  public static String idOf(String tenant, String username) {
    return UUID.nameUUIDFromBytes((tenant + ":" + username).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  private Future<Void> apply(BootstrapUser b) {
    return users
        .findByUsername(b.tenant(), b.username())
        .compose(
            existing -> {
              if (existing == null) {
                UserRecord user =
                    new UserRecord(
                        b.tenant(),
                        idOf(b.tenant(), b.username()),
                        b.username(),
                        true,
                        null,
                        b.permissions());
                return users
                    .create(user, b.password())
                    .onSuccess(
                        u ->
                            LOG.info(
                                "bootstrap: created user {} ({}) in tenant {}",
                                u.username(),
                                u.id(),
                                u.tenant()))
                    .mapEmpty();
              }
              if (existing.active() && existing.permissions().equals(b.permissions())) {
                return users.changePassword(b.tenant(), existing.id(), b.password());
              }
              return users
                  .update(b.tenant(), existing.id(), null, true, b.password())
                  .compose(u -> users.setPermissions(b.tenant(), u.id(), b.permissions()))
                  .onSuccess(
                      v ->
                          LOG.info(
                              "bootstrap: updated user {} in tenant {}", b.username(), b.tenant()));
            });
  }
}
