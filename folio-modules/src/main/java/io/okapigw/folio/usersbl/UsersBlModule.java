package io.okapigw.folio.usersbl;

import io.okapigw.folio.module.Call;
import io.okapigw.folio.module.ModuleSpec;
import io.okapigw.folio.module.Routes;

/**
 * Simulated mod-users-bl ({@code users-bl} 6.1), the two handlers Stripes logs in with: {@code POST
 * /bl-users/login-with-expiry} (current stripes-core: the tokens come back as cookies) and {@code
 * POST /bl-users/login} (older Stripes: the token in {@code X-Okapi-Token}). Each logs in at the
 * auth module's {@code /authn/login-with-expiry} or {@code /authn/login} (FOLIO's mod-login; here
 * the authtoken module) and answers FOLIO's composite user: the user, the permissions, the service
 * points and, with expiry, the tokens' expiry times ({@link BlLogin}).
 */
public final class UsersBlModule {

  static final Call LOGIN_WITH_EXPIRY = Call.post("login", "/authn/login-with-expiry");
  static final Call LOGIN = Call.post("login", "/authn/login");
  static final Call USERS = Call.get("users", "/users");
  static final Call PERMISSION_USERS = Call.get("permissions-users", "/perms/users");
  static final Call PERMISSIONS = Call.get("permissions-users", "/perms/users/{id}/permissions");
  static final Call SERVICE_POINTS_USERS =
      Call.get("service-points-users", "/service-points-users");
  static final Call SERVICE_POINT = Call.get("service-points", "/service-points/{id}");

  private UsersBlModule() {}

  /**
   * @return the module
   */
  public static ModuleSpec spec() {
    return ModuleSpec.of(
        "mod-users-bl",
        new Routes()
            .on("POST", "/bl-users/login-with-expiry", r -> new BlLogin(r, true).run())
            .on("POST", "/bl-users/login", r -> new BlLogin(r, false).run()));
  }
}
