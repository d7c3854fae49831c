package io.okapigw.authtoken;

import io.okapigw.authtoken.lookup.UserLookup;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Command-line parsing into {@link AuthtokenOptions}: {@code --name value} or {@code --name=value};
 * durations as {@code 500ms}, {@code 30s}, {@code 10m}, {@code 1h}, {@code 7d} or ISO-8601 ({@code
 * PT10M}).
 */
public final class CommandLine {
  /** Usage text printed by {@code --help} and after a bad setting. */
  public static final String USAGE =
      String.join(
          "\n",
          "Usage: java -jar authtoken-module-fat.jar [options]",
          "  --port P                      HTTP port (default 8081)",
          "  --host ADDR                   bind address (default 0.0.0.0)",
          "  --store json:DIR | postgresql://user:pass@host:port/db",
          "                                store (default json:./data/authtoken)",
          "  --signing-key-file F          HS256 key file, created if missing (default ./data/authtoken/signing.key)",
          "  --token-ttl D                 access token lifetime (default 10m)",
          "  --refresh-ttl D               refresh token lifetime (default 7d)",
          "  --bootstrap T:USER:PASS:p1,p2 create or update this user at start (repeatable)",
          "  --bootstrap-env T:USER:VAR:p1,p2",
          "                                the same, the password read from environment variable VAR",
          "  --gateway-url URL             gateway to tell about invalidations (default: none)",
          "  --gateway-timeout D           wait for the gateway's answer at most D (default 2s)",
          "  --gateway-retry-delay D       first background retry after D, doubling (default 1s)",
          "  --gateway-retries N           background retries (default 20)",
          "  --password-hash-iterations N  PBKDF2-HMAC-SHA256 iterations (default 600000)",
          "  --password-hash-threads N     threads hashing passwords (default: cores)",
          "  --max-token-length N          longest token accepted (default 8192)",
          "  --user-lookup local|gateway   where the filter finds a token's user and permissions: local",
          "                                (this store, default) or gateway (every decision: GET /users/{id},",
          "                                /perms/users?query=userId==ID, /perms/users/{id}/permissions through",
          "                                the gateway's X-Okapi-Url, as FOLIO's mod-authtoken)",
          "  --help                        print this and exit");

  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  private CommandLine() {}

  /**
   * @param args command-line arguments
   * @return the options, validated ({@code --bootstrap-env} reads the process environment)
   * @throws IllegalArgumentException naming the unknown or bad setting
   */
  public static AuthtokenOptions parse(String[] args) {
    return parse(args, System::getenv);
  }

  /**
   * @param args command-line arguments
   * @param env the environment {@code --bootstrap-env} reads passwords from
   * @return the options, validated
   * @throws IllegalArgumentException naming the unknown or bad setting (or unset variable)
   */
  public static AuthtokenOptions parse(String[] args, Function<String, String> env) {
    Map<String, BiConsumer<AuthtokenOptions, String>> setters = setters(env);
    AuthtokenOptions options = new AuthtokenOptions();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument: " + arg);
      }
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
      BiConsumer<AuthtokenOptions, String> setter = setters.get(name);
      if (setter == null) {
        throw new IllegalArgumentException("unknown option: --" + name);
      }
      if (eq < 0 && i + 1 >= args.length) {
        throw new IllegalArgumentException("--" + name + " needs a value");
      }
      setter.accept(options, eq < 0 ? args[++i] : arg.substring(eq + 1));
    }
    return options.validate();
  }

  /**
   * @param args command-line arguments
   * @return whether {@code --help} or {@code -h} is among them
   */
  public static boolean wantsHelp(String[] args) {
    for (String arg : args) {
      if ("--help".equals(arg) || "-h".equals(arg)) {
        return true;
      }
    }
    return false;
  }

  /**
   * @param name setting name, for the message
   * @param value {@code 500ms}, {@code 30s}, {@code 10m}, {@code 1h}, {@code 7d} or ISO-8601
   * @return the duration
   * @throws IllegalArgumentException naming the setting
   */
  public static Duration duration(String name, String value) {
    Matcher m = DURATION.matcher(value.trim());
    try {
      if (!m.matches()) {
        return Duration.parse(value.trim());
      }
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "--" + name + " must be a duration like 30s, 10m, 1h, 7d; was " + value);
    }
  }

  /** Each option's setter; {@code --bootstrap-env} reads {@code env}. */
  private static Map<String, BiConsumer<AuthtokenOptions, String>> setters(
      Function<String, String> env) {
    return Map.ofEntries(
        Map.entry("port", (o, v) -> o.setPort(integer("port", v))),
        Map.entry("host", AuthtokenOptions::setHost),
        Map.entry("store", AuthtokenOptions::setStore),
        Map.entry("signing-key-file", AuthtokenOptions::setSigningKeyFile),
        Map.entry("token-ttl", (o, v) -> o.setTokenTtl(duration("token-ttl", v))),
        Map.entry("refresh-ttl", (o, v) -> o.setRefreshTtl(duration("refresh-ttl", v))),
        Map.entry("bootstrap", (o, v) -> o.addBootstrapUser(BootstrapUser.parse(v))),
        Map.entry(
            "bootstrap-env", (o, v) -> o.addBootstrapUser(BootstrapUser.parseFromEnv(v, env))),
        Map.entry("gateway-url", AuthtokenOptions::setGatewayUrl),
        Map.entry("gateway-timeout", (o, v) -> o.setGatewayTimeout(duration("gateway-timeout", v))),
        Map.entry(
            "gateway-retry-delay",
            (o, v) -> o.setGatewayRetryDelay(duration("gateway-retry-delay", v))),
        Map.entry("gateway-retries", (o, v) -> o.setGatewayRetries(integer("gateway-retries", v))),
        Map.entry(
            "password-hash-iterations",
            (o, v) -> o.setPasswordHashIterations(integer("password-hash-iterations", v))),
        Map.entry(
            "password-hash-threads",
            (o, v) -> o.setPasswordHashThreads(integer("password-hash-threads", v))),
        Map.entry(
            "max-token-length", (o, v) -> o.setMaxTokenLength(integer("max-token-length", v))),
        Map.entry("user-lookup", (o, v) -> o.setUserLookup(UserLookup.parse(v))));
  }

  private static int integer(String name, String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be an integer, was " + value);
    }
  }
}
