package io.okapigw.folio.containers;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.folio.register.SuperAdmin;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * What {@code register} runs with: the values of the settings declared here ({@link #SPEC}, with
 * their defaults).
 *
 * @param gateway admin URL of one gateway node: ours, or Okapi
 * @param modulesUrl the {@code modules} process's manifest URL
 * @param authtokenUrl where the gateway reaches the authtoken module; also waited for, and where
 *     the super admin's login is tried before the admin API is protected
 * @param tenant the tenant to create and enable the modules for
 * @param username user whose login proves the set-up (the authtoken module bootstraps it with
 *     {@code --bootstrap} or {@code --bootstrap-env})
 * @param password that user's password ({@code --password}, or the value of the environment
 *     variable {@code --password-env} names); never logged
 * @param superAdmin the super admin's credentials; empty when no password is given. Used when the
 *     admin API refuses a call, and to protect it
 * @param protectAdmin whether the last step enables the authtoken module for the supertenant
 * @param members wait until the gateway sees this many cluster members: the {@code members} of our
 *     gateway's health, the nodes Okapi lists at {@code /_/discovery/nodes}
 * @param timeout how long to wait for every service to answer
 * @param publicUrl the gateway URL printed in the instructions
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

  static final Setting<String> GATEWAY =
      url("gateway", "http://localhost:9130")
          .about("admin URL of one gateway node: ours, or Okapi")
          .details("Okapi: [benchmarks](benchmarks.md#our-gateway-vs-your-okapi---vs).");

  static final Setting<Integer> MEMBERS =
      Setting.integer("members", 1, 1, 64)
          .about(
              "wait until that node sees this many cluster members (Okapi: nodes at"
                  + " `/_/discovery/nodes`)");

  static final Setting<String> MODULES_URL =
      url("modules-url", "http://localhost:9300").about("the manifest of the `modules` job");

  static final Setting<String> AUTHTOKEN_URL =
      url("authtoken-url", "http://localhost:8081")
          .about("where the gateways reach the authtoken module");

  static final Setting<String> TENANT =
      Setting.text("tenant", "diku", "TENANT")
          .check(s -> !s.isBlank(), "a tenant id")
          .about("the tenant to set up");

  static final Setting<String> USERNAME =
      Setting.text("username", "diku_admin", "USER")
          .check(s -> !s.isBlank(), "a user name")
          .about("the user whose login proves the set-up");

  static final Setting<String> PASSWORD =
      Setting.text("password", "admin", "PASSWORD")
          .check(s -> !s.isEmpty(), "a password")
          .about("that user's password (never logged)");

  static final Setting<String> PASSWORD_ENV =
      Setting.text("password-env", null, "VARIABLE")
          .about("read `username`'s password from this environment variable instead")
          .details("Unset or empty: exit 2 naming it.");

  static final Setting<String> ADMIN_USERNAME =
      Setting.text("admin-username", SuperAdmin.DEFAULT_USERNAME, "USER")
          .check(s -> !s.isBlank(), "a user name")
          .about("the super admin (tenant `supertenant`), for a protected admin API");

  static final Setting<String> ADMIN_PASSWORD_ENV =
      Setting.text("admin-password-env", null, "VARIABLE")
          .about("the name of an environment variable holding the super admin's password")
          .details(
              "Without it or `admin-password`, no admin call carries a token: a protected gateway"
                  + " fails the job with a message saying so.");

  static final Setting<String> ADMIN_PASSWORD =
      Setting.text("admin-password", null, "PASSWORD")
          .check(s -> !s.isEmpty(), "a password")
          .about(
              "the super admin's password itself (`admin-password-env` keeps it off the"
                  + " command line)");

  static final Setting<Boolean> PROTECT_ADMIN =
      Setting.bool("protect-admin", false)
          .shownDefault("true when an admin password is given, else false")
          .about(
              "last step: enable the authtoken module for the supertenant unless enabled (after"
                  + " checking the super admin can log in at the module)")
          .details(
              "`false` uses the credentials only when the admin API refuses a call. Without"
                  + " credentials, `true` is refused at start.");

  static final Setting<Duration> TIMEOUT =
      Setting.duration(
              "timeout", Duration.ofSeconds(180), Duration.ofSeconds(1), Duration.ofDays(1))
          .about("longest wait for each service");

  static final Setting<String> PUBLIC_URL =
      url("public-url", null)
          .shownDefault("`gateway`")
          .about("the gateway URL printed in the instructions");

  /** The settings of {@code register}, in documentation order. */
  static final SettingsSpec SPEC =
      SettingsSpec.of(
          GATEWAY,
          MEMBERS,
          MODULES_URL,
          AUTHTOKEN_URL,
          TENANT,
          USERNAME,
          PASSWORD,
          PASSWORD_ENV,
          ADMIN_USERNAME,
          ADMIN_PASSWORD_ENV,
          ADMIN_PASSWORD,
          PROTECT_ADMIN,
          TIMEOUT,
          PUBLIC_URL);

  /**
   * @param settings read by {@link #SPEC}
   * @throws IllegalArgumentException naming a bad setting
   */
  static RegisterOptions from(Settings settings) {
    return from(settings, System::getenv);
  }

  /**
   * @param settings read by {@link #SPEC}
   * @param env the environment, for {@code --password-env} and {@code --admin-password-env}
   * @throws IllegalArgumentException naming a bad setting (never a password)
   */
  static RegisterOptions from(Settings settings, Function<String, String> env) {
    String gateway = trim(settings.get(GATEWAY));
    Optional<SuperAdmin> superAdmin = superAdmin(settings, env);
    boolean protectAdmin =
        settings.has(PROTECT_ADMIN) ? settings.get(PROTECT_ADMIN) : superAdmin.isPresent();
    if (protectAdmin && superAdmin.isEmpty()) {
      throw new IllegalArgumentException(
          "protect-admin needs the super admin's password"
              + " (admin-password-env or admin-password), or nobody could use the admin API after");
    }
    String publicUrl = settings.get(PUBLIC_URL);
    return new RegisterOptions(
        gateway,
        trim(settings.get(MODULES_URL)),
        trim(settings.get(AUTHTOKEN_URL)),
        settings.get(TENANT),
        settings.get(USERNAME),
        secret(settings, PASSWORD, PASSWORD_ENV, env),
        superAdmin,
        protectAdmin,
        settings.get(MEMBERS),
        settings.get(TIMEOUT),
        publicUrl == null ? gateway : trim(publicUrl));
  }

  private static Optional<SuperAdmin> superAdmin(Settings settings, Function<String, String> env) {
    String username = settings.get(ADMIN_USERNAME);
    String password = secret(settings, ADMIN_PASSWORD, ADMIN_PASSWORD_ENV, env);
    return password == null ? Optional.empty() : Optional.of(new SuperAdmin(username, password));
  }

  /**
   * A password given as itself or, better, by the name of an environment variable.
   *
   * @return the password, or {@code plain}'s default when neither is given
   */
  private static String secret(
      Settings settings,
      Setting<String> plain,
      Setting<String> variable,
      Function<String, String> env) {
    if (settings.has(plain) && settings.has(variable)) {
      throw new IllegalArgumentException(
          "give either " + plain.key() + " or " + variable.key() + ", not both");
    }
    if (settings.has(variable)) {
      return SuperAdmin.passwordFromEnv(settings.get(variable), env, variable.key());
    }
    return settings.get(plain);
  }

  private static Setting<String> url(String key, String defaultValue) {
    return Setting.text(key, defaultValue, "URL")
        .check(
            s -> s.startsWith("http://") || s.startsWith("https://"), "an http:// or https:// URL");
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
