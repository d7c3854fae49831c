package io.okapigw.folio.register;

import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The credentials of a gateway's super admin: a user of tenant {@value #TENANT} whose token holds
 * {@code okapi.all}, as the authtoken module bootstraps it ({@code --bootstrap-env
 * supertenant:super_admin:SUPER_ADMIN_PASSWORD:okapi.all,authtoken.all,perms.users.assign.okapi}).
 * Needed for the admin API once an auth module is enabled for the supertenant: the gateway answers
 * the operator's calls to the supertenant's users only, and no tenant's admin can grant {@code
 * okapi.*} permissions without {@code perms.users.assign.okapi}.
 *
 * @param username login name (e.g. {@code super_admin})
 * @param password its password; never logged ({@link #toString()} hides it)
 */
public record SuperAdmin(String username, String password) {

  /** The tenant a super admin logs in to. */
  public static final String TENANT = "supertenant";

  /** The user name the demo, the compose file and the docs bootstrap. */
  public static final String DEFAULT_USERNAME = "super_admin";

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** Checks the fields. */
  public SuperAdmin {
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
    if (username.isEmpty() || password.isEmpty()) {
      throw new IllegalArgumentException("super admin username and password must not be empty");
    }
  }

  /**
   * @param username login name
   * @param variable name of the environment variable holding the password
   * @param env the environment ({@code System::getenv} in production)
   * @param setting the setting that named the variable, for messages
   * @return the credentials
   * @throws IllegalArgumentException naming the setting and the variable (never its value) if the
   *     name is bad or the variable unset or empty
   */
  public static SuperAdmin fromEnv(
      String username, String variable, Function<String, String> env, String setting) {
    return new SuperAdmin(username, passwordFromEnv(variable, env, setting));
  }

  /**
   * @return the value of environment variable {@code variable}
   * @throws IllegalArgumentException naming the setting and the variable (never its value) if the
   *     name is bad or the variable unset or empty
   */
  public static String passwordFromEnv(
      String variable, Function<String, String> env, String setting) {
    if (!ENV_NAME.matcher(variable).matches()) {
      throw new IllegalArgumentException(
          setting
              + ": "
              + variable
              + " is not an environment"
              + " variable name (letters, digits, '_', not starting with a digit)");
    }
    String value = env.apply(variable);
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(
          setting
              + ": environment variable "
              + variable
              + (value == null ? " is not set" : " is empty"));
    }
    return value;
  }

  @Override
  public String toString() {
    return "SuperAdmin[" + TENANT + ":" + username + "]";
  }
}
