package io.okapigw.authtoken;

import io.okapigw.authtoken.gateway.InvalidationOptions;
import io.okapigw.authtoken.lookup.UserLookup;
import io.okapigw.authtoken.password.PasswordOptions;
import io.okapigw.authtoken.session.SameSite;
import io.okapigw.authtoken.throttle.LoginThrottleOptions;
import io.okapigw.authtoken.token.TokenOptions;
import io.okapigw.authtoken.users.BootstrapUser;
import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import io.okapigw.config.StartDeadline;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Everything the authtoken module is configured with, validated on creation. Each setting is
 * declared once with the {@code config} module (key, accepted values, default, meaning): the
 * module's own here, each feature's beside the code that reads it ({@link TokenOptions}, {@link
 * PasswordOptions}, {@link InvalidationOptions}, {@link LoginThrottleOptions}, {@link
 * UserLookup#SETTING}, {@link SameSite#COOKIE_SAME_SITE}, {@link BootstrapUser#BOOTSTRAP}), so
 * flags and a {@code -conf} file follow the gateway's rules; {@code --help} and the table in {@code
 * docs/settings.md} are generated from {@link #SETTINGS}. Read from the command line with {@link
 * CommandLine#parse(String[])}; in code, start from {@link #defaults()} or {@link
 * #onLoopback(Path)} and change what differs with the withers.
 *
 * @param port HTTP port
 * @param host bind address
 * @param store where users, permissions and sessions live ({@link Stores})
 * @param signingKeyFile the HS256 key file
 * @param tokens token lifetimes and length
 * @param passwords password hashing
 * @param invalidation calls to the gateway's auth cache
 * @param userLookup where the filter finds a token's user and permissions
 * @param cookieSameSite the session cookies' {@code SameSite}
 * @param loginThrottle how logins are throttled
 * @param bootstrap users created or updated at every start
 */
public record AuthtokenOptions(
    int port,
    String host,
    String store,
    String signingKeyFile,
    TokenOptions tokens,
    PasswordOptions passwords,
    InvalidationOptions invalidation,
    UserLookup userLookup,
    SameSite cookieSameSite,
    LoginThrottleOptions loginThrottle,
    List<BootstrapUser> bootstrap) {

  public static final Setting<Integer> PORT =
      Setting.integer("port", 8081, 0, 65535).about("HTTP port; 0 picks a free one");

  public static final Setting<String> HOST =
      Setting.text("host", "0.0.0.0", "HOST")
          .check(s -> !s.isBlank(), "a host name or address")
          .about("bind address");

  public static final Setting<String> STORE =
      Setting.text("store", "json:./data/authtoken", "STORE")
          .check(
              s ->
                  s.startsWith("json:") && s.length() > 5
                      || s.startsWith("postgresql://")
                      || s.startsWith("postgres://"),
              "json:DIR or postgresql://user:pass@host:port/db")
          .about("where users, permissions and sessions live")
          .details(
              "`json:DIR`: the embedded JSON store, one instance. PostgreSQL: several instances"
                  + " share it.");

  public static final Setting<String> SIGNING_KEY_FILE =
      Setting.text("signing-key-file", "./data/authtoken/signing.key", "FILE")
          .check(s -> !s.isBlank(), "a file path")
          .about(
              "HS256 key (base64, >= 256 bits, mode 600), created with a random 256-bit key if"
                  + " missing")
          .details("Instances sharing the file share the key.");

  /** Every setting of the module, in documentation order. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(
              PORT,
              HOST,
              STORE,
              SIGNING_KEY_FILE,
              TokenOptions.TTL,
              TokenOptions.REFRESH_TTL,
              BootstrapUser.BOOTSTRAP,
              BootstrapUser.BOOTSTRAP_ENV)
          .and(InvalidationOptions.SETTINGS)
          .and(PasswordOptions.SETTINGS)
          .and(
              SettingsSpec.of(
                  TokenOptions.MAX_LENGTH, UserLookup.SETTING, SameSite.COOKIE_SAME_SITE))
          .and(LoginThrottleOptions.SETTINGS)
          .and(StartDeadline.SETTINGS);

  /**
   * @throws IllegalArgumentException naming the setting out of range
   */
  public AuthtokenOptions {
    PORT.check(port);
    HOST.check(host);
    STORE.check(store);
    SIGNING_KEY_FILE.check(signingKeyFile);
    Objects.requireNonNull(tokens, "tokens");
    Objects.requireNonNull(passwords, "passwords");
    Objects.requireNonNull(invalidation, "invalidation");
    UserLookup.SETTING.check(userLookup);
    SameSite.COOKIE_SAME_SITE.check(cookieSameSite);
    Objects.requireNonNull(loginThrottle, "loginThrottle");
    bootstrap = List.copyOf(bootstrap);
  }

  /**
   * @param settings flags and conf file, unknown keys already refused
   * @param env the environment {@code bootstrap-env} reads passwords from
   * @return the options, defaults for the settings not given
   * @throws IllegalArgumentException naming the bad setting (or unset variable)
   */
  public static AuthtokenOptions from(Settings settings, Function<String, String> env) {
    return new AuthtokenOptions(
        settings.get(PORT),
        settings.get(HOST),
        settings.get(STORE),
        settings.get(SIGNING_KEY_FILE),
        TokenOptions.from(settings),
        PasswordOptions.from(settings),
        InvalidationOptions.from(settings),
        settings.get(UserLookup.SETTING),
        settings.get(SameSite.COOKIE_SAME_SITE),
        LoginThrottleOptions.from(settings),
        BootstrapUser.from(settings, env));
  }

  /**
   * @return every setting at its declared default
   */
  public static AuthtokenOptions defaults() {
    return from(Settings.of(Map.of()), name -> null);
  }

  /**
   * Options for a module beside a gateway on this machine, as the demo, the benchmarks and the
   * tests run it: a free port of 127.0.0.1, the JSON store and the signing key in {@code dir}.
   * Tests and benchmarks add {@code withPasswords(PasswordOptions.cheapest())}.
   *
   * @param dir the store's directory, the key file {@code signing.key} in it
   * @return the options, every other setting at its default
   */
  public static AuthtokenOptions onLoopback(Path dir) {
    return defaults()
        .copy(
            b -> {
              b.port = 0;
              b.host = "127.0.0.1";
              b.store = "json:" + dir;
              b.signingKeyFile = dir.resolve("signing.key").toString();
            });
  }

  /**
   * @return these with another port
   */
  public AuthtokenOptions withPort(int newPort) {
    return copy(b -> b.port = newPort);
  }

  /**
   * @return these with another store ({@code json:DIR} or a PostgreSQL URI)
   */
  public AuthtokenOptions withStore(String newStore) {
    return copy(b -> b.store = newStore);
  }

  /**
   * @return these with another signing key file
   */
  public AuthtokenOptions withSigningKeyFile(String newSigningKeyFile) {
    return copy(b -> b.signingKeyFile = newSigningKeyFile);
  }

  /**
   * @return these with other token lifetimes
   */
  public AuthtokenOptions withTokens(TokenOptions newTokens) {
    return copy(b -> b.tokens = newTokens);
  }

  /**
   * @return these with other password hashing
   */
  public AuthtokenOptions withPasswords(PasswordOptions newPasswords) {
    return copy(b -> b.passwords = newPasswords);
  }

  /**
   * @return these with another gateway to tell of invalidations, or other waits and retries
   */
  public AuthtokenOptions withInvalidation(InvalidationOptions newInvalidation) {
    return copy(b -> b.invalidation = newInvalidation);
  }

  /**
   * @return these with another user lookup
   */
  public AuthtokenOptions withUserLookup(UserLookup newUserLookup) {
    return copy(b -> b.userLookup = newUserLookup);
  }

  /**
   * @return these with another {@code SameSite} for the session cookies
   */
  public AuthtokenOptions withCookieSameSite(SameSite newSameSite) {
    return copy(b -> b.cookieSameSite = newSameSite);
  }

  /**
   * @return these with other login throttling
   */
  public AuthtokenOptions withLoginThrottle(LoginThrottleOptions newThrottle) {
    return copy(b -> b.loginThrottle = newThrottle);
  }

  /**
   * @return these with these bootstrap users (instead of those before)
   */
  public AuthtokenOptions withBootstrap(List<BootstrapUser> users) {
    return copy(b -> b.bootstrap = users);
  }

  /**
   * @return the settings as JSON, without secrets (the store's password and the bootstrap users'
   *     are left out)
   */
  public JsonObject toJson() {
    JsonArray users = new JsonArray();
    bootstrap.forEach(u -> users.add(u.tenant() + ":" + u.username()));
    return new JsonObject()
        .put("port", port)
        .put("host", host)
        .put("store", store.replaceAll("//([^:/@]+):[^@]*@", "//$1:***@"))
        .put("signingKeyFile", signingKeyFile)
        .put("tokenTtl", tokens.ttl().toString())
        .put("refreshTtl", tokens.refreshTtl().toString())
        .put("passwordHashIterations", passwords.iterations())
        .put("passwordHashThreads", passwords.threads())
        .put("gatewayUrls", new JsonArray(invalidation.gateways()))
        .put("gatewayTimeout", invalidation.timeout().toString())
        .put("userLookup", userLookup.toString())
        .put("cookieSameSite", cookieSameSite.toString())
        .put("bootstrap", users);
  }

  /**
   * A copy with what {@code change} sets changed: one place lists the components for the withers.
   */
  private AuthtokenOptions copy(Consumer<Copy> change) {
    Copy b = new Copy(this);
    change.accept(b);
    return new AuthtokenOptions(
        b.port,
        b.host,
        b.store,
        b.signingKeyFile,
        b.tokens,
        b.passwords,
        b.invalidation,
        b.userLookup,
        b.cookieSameSite,
        b.loginThrottle,
        b.bootstrap);
  }

  /** The components, to change some. */
  private static final class Copy {
    int port;
    String host;
    String store;
    String signingKeyFile;
    TokenOptions tokens;
    PasswordOptions passwords;
    InvalidationOptions invalidation;
    UserLookup userLookup;
    SameSite cookieSameSite;
    LoginThrottleOptions loginThrottle;
    List<BootstrapUser> bootstrap;

    Copy(AuthtokenOptions o) {
      port = o.port;
      host = o.host;
      store = o.store;
      signingKeyFile = o.signingKeyFile;
      tokens = o.tokens;
      passwords = o.passwords;
      invalidation = o.invalidation;
      userLookup = o.userLookup;
      cookieSameSite = o.cookieSameSite;
      loginThrottle = o.loginThrottle;
      bootstrap = o.bootstrap;
    }
  }
}
