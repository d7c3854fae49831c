package io.okapigw.authtoken.users;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A user created or updated at every start (idempotent): how a first admin comes to exist.
 *
 * @param tenant tenant id
 * @param username login name
 * @param password password (never logged; {@link #toString()} hides it)
 * @param permissions permission names to grant (replacing the user's permissions)
 */
public record BootstrapUser(
    String tenant, String username, String password, List<String> permissions) {
  private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** Setting {@code bootstrap}: {@link #parse(String)}. */
  public static final Setting<String> BOOTSTRAP =
      Setting.text("bootstrap", null, "T:USER:PASS:p1,p2")
          .repeatable()
          .about("create or update this user at every start; the password may contain `:`");

  /** Setting {@code bootstrap-env}: {@link #parseFromEnv}. */
  public static final Setting<String> BOOTSTRAP_ENV =
      Setting.text("bootstrap-env", null, "T:USER:VAR:p1,p2")
          .repeatable()
          .about(
              "the same, the password read from the environment variable VAR, so it is on no"
                  + " command line")
          .details("VAR unset or empty: exit 2 naming it.");

  /** Checks and copies the fields. */
  public BootstrapUser {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
    permissions = List.copyOf(permissions);
  }

  /**
   * @param settings flags and conf file
   * @param env the environment {@code bootstrap-env} reads passwords from
   * @return the users of every {@code bootstrap}, then of every {@code bootstrap-env}
   * @throws IllegalArgumentException naming the setting of a bad one, or the unset variable
   */
  public static List<BootstrapUser> from(Settings settings, Function<String, String> env) {
    List<BootstrapUser> users = new ArrayList<>();
    settings.getAll(BOOTSTRAP).forEach(spec -> users.add(parse(spec)));
    settings.getAll(BOOTSTRAP_ENV).forEach(spec -> users.add(parseFromEnv(spec, env)));
    return List.copyOf(users);
  }

  /**
   * Parses {@code TENANT:USERNAME:PASSWORD:perm1,perm2} (setting {@code bootstrap}). The password
   * may contain colons (tenant and username end at the first two, permissions start after the
   * last).
   *
   * @param spec the specification
   * @return the user
   * @throws IllegalArgumentException if a part is missing
   */
  public static BootstrapUser parse(String spec) {
    return parse(spec, BOOTSTRAP.key(), "PASSWORD");
  }

  /**
   * Parses {@code TENANT:USERNAME:VARIABLE:perm1,perm2} (setting {@code bootstrap-env}): as {@link
   * #parse(String)}, but the password is the value of the environment variable {@code VARIABLE}, so
   * it appears on no command line.
   *
   * @param spec the specification
   * @param env the environment ({@code System::getenv} in production)
   * @return the user
   * @throws IllegalArgumentException if a part is missing, or the variable is badly named, unset or
   *     empty (the message names it, never its value)
   */
  public static BootstrapUser parseFromEnv(String spec, Function<String, String> env) {
    BootstrapUser parsed = parse(spec, BOOTSTRAP_ENV.key(), "VARIABLE");
    String variable = parsed.password();
    if (!ENV_NAME.matcher(variable).matches()) {
      throw new IllegalArgumentException(
          "bootstrap-env: "
              + variable
              + " is not an environment variable name (letters, digits, '_', not starting with a digit)");
    }
    String password = env.apply(variable);
    if (password == null || password.isEmpty()) {
      throw new IllegalArgumentException(
          "bootstrap-env: environment variable "
              + variable
              + (password == null ? " is not set" : " is empty")
              + " (password of "
              + parsed.username()
              + ")");
    }
    return new BootstrapUser(parsed.tenant(), parsed.username(), password, parsed.permissions());
  }

  private static BootstrapUser parse(String spec, String option, String secret) {
    int first = spec.indexOf(':');
    int second = first < 0 ? -1 : spec.indexOf(':', first + 1);
    int last = spec.lastIndexOf(':');
    if (first <= 0 || second <= first + 1 || last <= second + 1) {
      throw new IllegalArgumentException(
          option + " must be TENANT:USERNAME:" + secret + ":perm1,perm2");
    }
    if (!TENANT.matcher(spec.substring(0, first)).matches()) {
      throw new IllegalArgumentException(
          option + ": tenant must be 1-64 letters, digits, '_' or '-'");
    }
    List<String> perms =
        Arrays.stream(spec.substring(last + 1).split(","))
            .map(String::trim)
            .filter(p -> !p.isEmpty())
            .toList();
    return new BootstrapUser(
        spec.substring(0, first),
        spec.substring(first + 1, second),
        spec.substring(second + 1, last),
        perms);
  }

  @Override
  public String toString() {
    return "BootstrapUser[" + tenant + ":" + username + ", permissions=" + permissions + "]";
  }
}
