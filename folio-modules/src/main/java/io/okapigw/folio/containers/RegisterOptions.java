package io.okapigw.folio.containers;

import io.okapigw.config.Settings;
import io.okapigw.folio.register.SuperAdmin;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What {@code register} runs with.
 *
 * @param gateway admin URL of one gateway node (default http://localhost:9130): ours, or Okapi
 * @param modulesUrl the {@code modules} process's manifest URL (default http://localhost:9300)
 * @param authtokenUrl where the gateway reaches the authtoken module (default
 *     http://localhost:8081); also waited for, and where the super admin's login is tried before
 *     the admin API is protected
 * @param tenant the tenant to create and enable the modules for (default diku)
 * @param username user whose login proves the set-up (default diku_admin; the authtoken module
 *     bootstraps it with {@code --bootstrap} or {@code --bootstrap-env})
 * @param password that user's password ({@code --password}, default the demo's, admin; or the value
 *     of the environment variable {@code --password-env} names); never logged
 * @param superAdmin the super admin's credentials ({@code --admin-username}, default super_admin,
 *     and {@code --admin-password-env VARIABLE} or {@code --admin-password}); empty when no
 *     password is given. Used when the admin API refuses a call, and to protect it
 * @param protectAdmin whether the last step enables the authtoken module for the supertenant
 *     ({@code --protect-admin}; default: whether super-admin credentials are given)
 * @param members wait until the gateway sees this many cluster members (default 1): the {@code
 *     members} of our gateway's health, the nodes Okapi lists at {@code /_/discovery/nodes}
 * @param timeout how long to wait for every service to answer (default 180s)
 * @param publicUrl the gateway URL printed in the instructions (default: {@code gateway})
 */
record RegisterOptions(
    String gateway,
    String modulesUrl,
    String authtokenUrl,
    String tenant,
    String username,
    String password,
    Optional<SuperAdmin> superAdmin,
    boolean protectAdmin,
    int members,
    Duration timeout,
    String publicUrl) {

  static final Set<String> KEYS =
      Set.of(
          "gateway",
          "modules-url",
          "authtoken-url",
          "tenant",
          "username",
          "password",
          "password-env",
          "admin-username",
          "admin-password",
          "admin-password-env",
          "protect-admin",
          "members",
          "timeout",
          "public-url");

  /**
   * @throws IllegalArgumentException naming a bad setting
   */
  static RegisterOptions from(Settings settings) {
    return from(settings, System::getenv);
  }

  /**
   * @param env the environment, for {@code --password-env} and {@code --admin-password-env}
   * @throws IllegalArgumentException naming a bad setting (never a password)
   */
  static RegisterOptions from(Settings settings, Function<String, String> env) {
    settings.checkKnown(KEYS);
    String gateway = trim(settings.string("gateway", "http://localhost:9130"));
    Optional<SuperAdmin> superAdmin = superAdmin(settings, env);
    boolean protectAdmin = settings.bool("protect-admin", superAdmin.isPresent());
    if (protectAdmin && superAdmin.isEmpty()) {
      throw new IllegalArgumentException(
          "protect-admin needs the super admin's password"
              + " (admin-password-env or admin-password), or nobody could use the admin API after");
    }
    return new RegisterOptions(
        gateway,
        trim(settings.string("modules-url", "http://localhost:9300")),
        trim(settings.string("authtoken-url", "http://localhost:8081")),
        settings.string("tenant", "diku"),
        settings.string("username", "diku_admin"),
        secret(settings, "password", "password-env", "admin", env),
        superAdmin,
        protectAdmin,
        settings.integer("members", 1, 1, 64),
        settings.duration("timeout", Duration.ofSeconds(180)),
        trim(settings.string("public-url", gateway)));
  }

  private static Optional<SuperAdmin> superAdmin(Settings settings, Function<String, String> env) {
    String password = secret(settings, "admin-password", "admin-password-env", null, env);
    String username = settings.string("admin-username", SuperAdmin.DEFAULT_USERNAME);
    if (username.isEmpty()) {
      throw new IllegalArgumentException("admin-username must not be empty");
    }
    return password == null ? Optional.empty() : Optional.of(new SuperAdmin(username, password));
  }

  /** A password given as itself or, better, by the name of an environment variable. */
  private static String secret(
      Settings settings, String key, String envKey, String fallback, Function<String, String> env) {
    String plain = settings.string(key, null);
    String variable = settings.string(envKey, null);
    if (plain != null && variable != null) {
      throw new IllegalArgumentException("give either " + key + " or " + envKey + ", not both");
    }
    if (variable != null) {
      return SuperAdmin.passwordFromEnv(variable, env, envKey);
    }
    if (plain != null && plain.isEmpty()) {
      throw new IllegalArgumentException(key + " must not be empty");
    }
    return plain != null ? plain : fallback;
  }

  private static String trim(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  @Override
  public String toString() {
    return "RegisterOptions[gateway="
        + gateway
        + ", tenant="
        + tenant
        + ", username="
        + username
        + ", superAdmin="
        + superAdmin
        + ", protectAdmin="
        + protectAdmin
        + "]";
  }
}
