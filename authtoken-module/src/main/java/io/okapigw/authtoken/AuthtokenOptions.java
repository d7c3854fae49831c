package io.okapigw.authtoken;

import io.okapigw.authtoken.lookup.UserLookup;
import io.okapigw.authtoken.session.SameSite;
import io.okapigw.authtoken.throttle.LoginThrottleOptions;
import io.okapigw.authtoken.users.BootstrapUser;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Settings of the authtoken module, with every default in one place. Setters are fluent and check
 * their argument by its declaration in {@link AuthtokenSettings} (message {@code <key> must be ...,
 * was '<value>'}); {@link #validate()} checks the whole at start and names the bad setting. Build
 * it programmatically or from the command line with {@link CommandLine#parse(String[])}.
 */
public class AuthtokenOptions {
  /** Default HTTP port. */
  public static final int DEFAULT_PORT = 8081;

  /** Default bind address. */
  public static final String DEFAULT_HOST = "0.0.0.0";

  /** Default store: the embedded JSON store in {@code ./data/authtoken}. */
  public static final String DEFAULT_STORE = "json:./data/authtoken";

  /** Default signing key file, created with a random 256-bit key if missing. */
  public static final String DEFAULT_SIGNING_KEY_FILE = "./data/authtoken/signing.key";

  /** Default access (and module) token lifetime. */
  public static final Duration DEFAULT_TOKEN_TTL = Duration.ofMinutes(10);

  /** Default refresh token lifetime. */
  public static final Duration DEFAULT_REFRESH_TTL = Duration.ofDays(7);

  /** Default PBKDF2-HMAC-SHA256 iteration count: OWASP's recommendation since 2023. */
  public static final int DEFAULT_PASSWORD_HASH_ITERATIONS = 600_000;

  /** Lowest iteration count accepted (for benchmarks and tests only). */
  public static final int MIN_PASSWORD_HASH_ITERATIONS = 1_000;

  /** Default bound on the wait for the gateway's answer to an invalidation. */
  public static final Duration DEFAULT_GATEWAY_TIMEOUT = Duration.ofSeconds(2);

  /**
   * Default delay before the first background retry of an invalidation (doubles, capped at 30 s).
   */
  public static final Duration DEFAULT_GATEWAY_RETRY_DELAY = Duration.ofSeconds(1);

  /** Default number of background retries of an invalidation. */
  public static final int DEFAULT_GATEWAY_RETRIES = 20;

  /** Longest token accepted; longer ones are refused with 401. */
  public static final int DEFAULT_MAX_TOKEN_LENGTH = 8192;

  private int port = DEFAULT_PORT;
  private String host = DEFAULT_HOST;
  private String store = DEFAULT_STORE;
  private String signingKeyFile = DEFAULT_SIGNING_KEY_FILE;
  private Duration tokenTtl = DEFAULT_TOKEN_TTL;
  private Duration refreshTtl = DEFAULT_REFRESH_TTL;
  private int passwordHashIterations = DEFAULT_PASSWORD_HASH_ITERATIONS;
  private int passwordHashThreads = Runtime.getRuntime().availableProcessors();
  private String gatewayUrl;
  private Duration gatewayTimeout = DEFAULT_GATEWAY_TIMEOUT;
  private Duration gatewayRetryDelay = DEFAULT_GATEWAY_RETRY_DELAY;
  private int gatewayRetries = DEFAULT_GATEWAY_RETRIES;
  private int maxTokenLength = DEFAULT_MAX_TOKEN_LENGTH;
  private UserLookup userLookup = UserLookup.LOCAL;
  private SameSite cookieSameSite = SameSite.LAX;
  private LoginThrottleOptions loginThrottle = LoginThrottleOptions.defaults();
  private final List<BootstrapUser> bootstrapUsers = new ArrayList<>();
  private Clock clock = Clock.systemUTC();

  /** Options with every default. */
  public AuthtokenOptions() {}

  /**
   * Options for a module beside a gateway on this machine, as the demo, the benchmarks and the
   * tests run it: a free port of 127.0.0.1, the JSON store and the signing key in {@code dir}.
   * Tests and benchmarks add {@code setPasswordHashIterations(MIN_PASSWORD_HASH_ITERATIONS)}.
   *
   * @param dir the store's directory, the key file {@code signing.key} in it
   * @return the options, every other setting at its default
   */
  public static AuthtokenOptions onLoopback(Path dir) {
    return new AuthtokenOptions()
        .setPort(0)
        .setHost("127.0.0.1")
        .setStore("json:" + dir)
        .setSigningKeyFile(dir.resolve("signing.key").toString());
  }

  /**
   * @return HTTP port, 0 for any free port (default 8081)
   */
  public int port() {
    return port;
  }

  /**
   * @param port HTTP port 0..65535 (0: any free port) @return this
   */
  public AuthtokenOptions setPort(int port) {
    this.port = AuthtokenSettings.PORT.check(port);
    return this;
  }

  /**
   * @return bind address (default 0.0.0.0)
   */
  public String host() {
    return host;
  }

  /**
   * @param host bind address @return this
   */
  public AuthtokenOptions setHost(String host) {
    this.host = AuthtokenSettings.HOST.check(host);
    return this;
  }

  /**
   * @return store: {@code json:DIR} or {@code postgresql://user:pass@host:port/db}
   */
  public String store() {
    return store;
  }

  /**
   * @param store {@code json:DIR} or {@code postgresql://user:pass@host:port/db} @return this
   */
  public AuthtokenOptions setStore(String store) {
    this.store = AuthtokenSettings.STORE.check(store);
    return this;
  }

  /**
   * @return path of the signing key file
   */
  public String signingKeyFile() {
    return signingKeyFile;
  }

  /**
   * @param file path of the signing key file (created if missing) @return this
   */
  public AuthtokenOptions setSigningKeyFile(String file) {
    this.signingKeyFile = AuthtokenSettings.SIGNING_KEY_FILE.check(file);
    return this;
  }

  /**
   * @return access token lifetime (default 10 minutes)
   */
  public Duration tokenTtl() {
    return tokenTtl;
  }

  /**
   * @param ttl access token lifetime, 1 s .. 24 h @return this
   */
  public AuthtokenOptions setTokenTtl(Duration ttl) {
    this.tokenTtl = AuthtokenSettings.TOKEN_TTL.check(ttl);
    return this;
  }

  /**
   * @return refresh token lifetime (default 7 days)
   */
  public Duration refreshTtl() {
    return refreshTtl;
  }

  /**
   * @param ttl refresh token lifetime, 1 s .. 365 d @return this
   */
  public AuthtokenOptions setRefreshTtl(Duration ttl) {
    this.refreshTtl = AuthtokenSettings.REFRESH_TTL.check(ttl);
    return this;
  }

  /**
   * @return PBKDF2 iterations for new password hashes (default 600,000)
   */
  public int passwordHashIterations() {
    return passwordHashIterations;
  }

  /**
   * @param iterations PBKDF2 iterations, at least 1,000 @return this
   */
  public AuthtokenOptions setPasswordHashIterations(int iterations) {
    this.passwordHashIterations = AuthtokenSettings.PASSWORD_HASH_ITERATIONS.check(iterations);
    return this;
  }

  /**
   * @return threads hashing passwords (default: number of cores); more logins queue
   */
  public int passwordHashThreads() {
    return passwordHashThreads;
  }

  /**
   * @param threads threads hashing passwords, 1..256 @return this
   */
  public AuthtokenOptions setPasswordHashThreads(int threads) {
    this.passwordHashThreads = AuthtokenSettings.PASSWORD_HASH_THREADS.check(threads);
    return this;
  }

  /**
   * @return how logins are throttled ({@code login.*} settings)
   */
  public LoginThrottleOptions loginThrottle() {
    return loginThrottle;
  }

  /**
   * @param loginThrottle how logins are throttled @return this
   */
  public AuthtokenOptions setLoginThrottle(LoginThrottleOptions loginThrottle) {
    this.loginThrottle = Objects.requireNonNull(loginThrottle, "loginThrottle");
    return this;
  }

  /**
   * @return base URL of the gateway to invalidate its auth cache, or {@code null}: don't
   */
  public String gatewayUrl() {
    return gatewayUrl;
  }

  /**
   * @param url gateway base URL ({@code http(s)://host:port}), or {@code null} @return this
   */
  public AuthtokenOptions setGatewayUrl(String url) {
    if (url != null) {
      AuthtokenSettings.GATEWAY_URL.check(url);
      url = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
    this.gatewayUrl = url;
    return this;
  }

  /**
   * @return bound on the wait for the gateway's answer (default 2 s)
   */
  public Duration gatewayTimeout() {
    return gatewayTimeout;
  }

  /**
   * @param timeout bound on the wait, 1 ms .. 60 s @return this
   */
  public AuthtokenOptions setGatewayTimeout(Duration timeout) {
    this.gatewayTimeout = AuthtokenSettings.GATEWAY_TIMEOUT.check(timeout);
    return this;
  }

  /**
   * @return delay before the first background retry (default 1 s; doubles up to 30 s)
   */
  public Duration gatewayRetryDelay() {
    return gatewayRetryDelay;
  }

  /**
   * @param delay first retry delay, at least 1 ms @return this
   */
  public AuthtokenOptions setGatewayRetryDelay(Duration delay) {
    this.gatewayRetryDelay = AuthtokenSettings.GATEWAY_RETRY_DELAY.check(delay);
    return this;
  }

  /**
   * @return background retries per invalidation (default 20)
   */
  public int gatewayRetries() {
    return gatewayRetries;
  }

  /**
   * @param retries background retries, 0..1000 @return this
   */
  public AuthtokenOptions setGatewayRetries(int retries) {
    this.gatewayRetries = AuthtokenSettings.GATEWAY_RETRIES.check(retries);
    return this;
  }

  /**
   * @return longest token accepted (default 8192 characters)
   */
  public int maxTokenLength() {
    return maxTokenLength;
  }

  /**
   * @param length longest token accepted, 256..16384 @return this
   */
  public AuthtokenOptions setMaxTokenLength(int length) {
    this.maxTokenLength = AuthtokenSettings.MAX_TOKEN_LENGTH.check(length);
    return this;
  }

  /**
   * @return where the auth filter finds a token's user and permissions (default {@link
   *     UserLookup#LOCAL}: this module's store)
   */
  public UserLookup userLookup() {
    return userLookup;
  }

  /**
   * @param lookup {@link UserLookup#LOCAL} or {@link UserLookup#GATEWAY} @return this
   */
  public AuthtokenOptions setUserLookup(UserLookup lookup) {
    this.userLookup = AuthtokenSettings.USER_LOOKUP.check(lookup);
    return this;
  }

  /**
   * @return users created or updated at start
   */
  public List<BootstrapUser> bootstrapUsers() {
    return List.copyOf(bootstrapUsers);
  }

  /**
   * @param user a user to create or update at start @return this
   */
  public AuthtokenOptions addBootstrapUser(BootstrapUser user) {
    bootstrapUsers.add(Objects.requireNonNull(user, "user"));
    return this;
  }

  /**
   * @return the clock for token issue and expiry (default: system UTC)
   */
  public Clock clock() {
    return clock;
  }

  /**
   * @return the {@code SameSite} of the session cookies (default {@code Lax}, as mod-login)
   */
  public SameSite cookieSameSite() {
    return cookieSameSite;
  }

  /**
   * @param sameSite the {@code SameSite} of the session cookies @return this
   */
  public AuthtokenOptions setCookieSameSite(SameSite sameSite) {
    this.cookieSameSite = AuthtokenSettings.COOKIE_SAME_SITE.check(sameSite);
    return this;
  }

  /**
   * @param clock clock for token issue and expiry (tests inject a fake one) @return this
   */
  public AuthtokenOptions setClock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * Checks settings that depend on each other.
   *
   * @return this
   * @throws IllegalArgumentException naming the bad setting
   */
  public AuthtokenOptions validate() {
    if (refreshTtl.compareTo(tokenTtl) < 0) {
      throw new IllegalArgumentException(
          "refresh-ttl must not be shorter than token-ttl ("
              + AuthtokenSettings.TOKEN_TTL.format(tokenTtl)
              + "), was '"
              + AuthtokenSettings.REFRESH_TTL.format(refreshTtl)
              + "'");
    }
    return this;
  }

  /**
   * @return the settings as JSON, without secrets (bootstrap passwords are left out)
   */
  public JsonObject toJson() {
    JsonArray users = new JsonArray();
    bootstrapUsers.forEach(u -> users.add(u.tenant() + ":" + u.username()));
    return new JsonObject()
        .put("port", port)
        .put("host", host)
        .put("store", store.replaceAll("//([^:/@]+):[^@]*@", "//$1:***@"))
        .put("signingKeyFile", signingKeyFile)
        .put("tokenTtl", tokenTtl.toString())
        .put("refreshTtl", refreshTtl.toString())
        .put("passwordHashIterations", passwordHashIterations)
        .put("passwordHashThreads", passwordHashThreads)
        .put("gatewayUrl", gatewayUrl)
        .put("gatewayTimeout", gatewayTimeout.toString())
        .put("userLookup", userLookup.toString())
        .put("cookieSameSite", cookieSameSite.toString())
        .put("bootstrap", users);
  }
}
