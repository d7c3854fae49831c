package io.okapigw.core.eureka;

import io.okapigw.config.Setting;
import io.okapigw.config.Settings;
import io.okapigw.config.SettingsSpec;
import java.time.Duration;

/**
 * How a node serves Eureka tenants ({@code eureka.*} settings, declared here): where Keycloak is,
 * the names FOLIO's Eureka gives its clients, and how decisions are dropped when something changes.
 * Without {@code eureka.keycloak-url} no tenant can be an Eureka tenant (their requests get 503
 * naming the setting), and Okapi's tenants are served as before.
 *
 * @param keycloakUrl Keycloak's base URL, no trailing slash; null when Eureka is off
 * @param issuerUrl the base URL Keycloak's tokens name in {@code iss} (its public URL), no trailing
 *     slash
 * @param loginClientSuffix appended to the tenant to name the client whose authorization services
 *     decide ({@code {tenant}-login-application})
 * @param serviceClientId the client whose client-credentials token modules' calls carry as {@code
 *     X-System-Token} ({@code sidecar-module-access-client})
 * @param adminClientId the master realm's client the gateway reads realms with (client secrets,
 *     admin events)
 * @param adminClientSecret its secret (the setting, else the secure store's); null: no admin calls
 *     (no admin events, no X-System-Token)
 * @param clockSkew how far past {@code exp} a token is still taken (the sidecar's 60 s)
 * @param jwksRefresh how long a realm's keys are used before they are fetched again
 * @param jwksRefetchMin the least time between two fetches of a realm's keys for unknown {@code
 *     kid}s
 * @param jwksRetry how long a failed fetch of a realm's keys (Keycloak down, no such realm) is
 *     remembered: no fetch for an unknown {@code kid} before it has passed
 * @param logoutSettle how long after a logout event a session's (a user's) decisions are not
 *     cached: FOLIO sends the event before Keycloak ends the session
 * @param adminEventsInterval how often each Eureka tenant's realm is asked for its admin events;
 *     zero: never
 * @param kafka Kafka's bootstrap servers; null: no topics read
 * @param env FOLIO's environment name, the topics' prefix ({@code folio})
 * @param callTimeout how long Keycloak and modules asked on a request's behalf may take
 * @param tokenRefreshBeforeExpiry how long before they expire the gateway's own tokens (service
 *     token, system users') are replaced
 * @param secrets FOLIO's secure store (credentials of clients and system users), or {@link
 *     SecretStore#none}
 * @param entitlementsUrl mgr-tenant-entitlements; null: Eureka tenants' modules are enabled by hand
 * @param applicationsUrl mgr-applications; null: as above
 * @param entitlementsRefresh how often the tenants' entitlements are read again (a safety sweep, on
 *     the cluster's reader)
 */
public record EurekaOptions(
    String keycloakUrl,
    String issuerUrl,
    String loginClientSuffix,
    String serviceClientId,
    String adminClientId,
    String adminClientSecret,
    Duration clockSkew,
    Duration jwksRefresh,
    Duration jwksRefetchMin,
    Duration jwksRetry,
    Duration logoutSettle,
    Duration adminEventsInterval,
    String kafka,
    String env,
    Duration callTimeout,
    Duration tokenRefreshBeforeExpiry,
    SecretStore secrets,
    String entitlementsUrl,
    String applicationsUrl,
    Duration entitlementsRefresh) {

  private static final Duration MS = Duration.ofMillis(1);
  private static final String EPHEMERAL = "EPHEMERAL";
  private static final Duration DAY = Duration.ofDays(1);

  public static final Setting<String> KEYCLOAK_URL =
      Setting.text("eureka.keycloak-url", null, "URL")
          .check(u -> u == null || u.matches("https?://[^\\s/]+(/[^\\s]*)?"), "an http(s) URL")
          .about(
              "Keycloak, for Eureka tenants (`\"auth\": \"eureka\"`): tokens checked against its"
                  + " realms' keys, decisions asked of its authorization services")
          .details("Unset: no tenant is an Eureka tenant.");

  public static final Setting<String> ISSUER_URL =
      Setting.text("eureka.keycloak-issuer-url", null, "URL")
          .check(u -> u == null || u.matches("https?://[^\\s/]+(/[^\\s]*)?"), "an http(s) URL")
          .shownDefault("eureka.keycloak-url")
          .about(
              "the URL Keycloak's tokens name in `iss` where it differs from the one the gateway"
                  + " calls: Keycloak's public URL (its `hostname`), e.g."
                  + " `https://keycloak.example.org`, when the gateway reaches it as"
                  + " `http://keycloak:8080`")
          .details(
              "A token's `iss` must be exactly this URL's `/realms/{tenant}`; its keys and"
                  + " decisions are still asked of `eureka.keycloak-url` (the sidecar's `KC_URL`"
                  + " and `KC_JWKS_BASE_URL`).");

  public static final Setting<String> LOGIN_CLIENT_SUFFIX =
      Setting.text("eureka.login-client-suffix", "-login-application", "SUFFIX")
          .about("the client that decides is `{tenant}` + this (FOLIO's `KC_LOGIN_CLIENT_SUFFIX`)");

  public static final Setting<String> SERVICE_CLIENT_ID =
      Setting.text("eureka.service-client-id", "sidecar-module-access-client", "CLIENT")
          .about(
              "the client whose client-credentials token a module's call carries as"
                  + " `X-System-Token` (FOLIO's `KC_SERVICE_CLIENT_ID`)");

  public static final Setting<String> ADMIN_CLIENT_ID =
      Setting.text("eureka.admin-client-id", "folio-backend-admin-client", "CLIENT")
          .about(
              "the master realm's client the gateway reads realms with: client secrets, admin"
                  + " events (FOLIO's `KC_ADMIN_CLIENT_ID`)");

  public static final Setting<String> ADMIN_CLIENT_SECRET =
      Setting.text("eureka.admin-client-secret", null, "SECRET")
          .about(
              "its secret; unset: the secure store's `{env}_master_{client}` (as the sidecar reads"
                  + " it); neither: no admin events read, no `X-System-Token`");

  public static final Setting<Duration> CLOCK_SKEW =
      Setting.duration("eureka.clock-skew", Duration.ofSeconds(60), Duration.ZERO, DAY)
          .about("how far past its `exp` a Keycloak token is still taken (as the sidecar)");

  public static final Setting<Duration> JWKS_REFRESH =
      Setting.duration("eureka.jwks-refresh", Duration.ofHours(1), Duration.ofSeconds(1), DAY)
          .about("how long a realm's signing keys are used before they are fetched again");

  public static final Setting<Duration> JWKS_REFETCH_MIN =
      Setting.duration("eureka.jwks-refetch-min", Duration.ofSeconds(1), Duration.ZERO, DAY)
          .about(
              "a token signed with a key the gateway does not know makes it fetch the realm's keys"
                  + " again, at most once in this time")
          .details(
              "A token of an unknown key within this time waits for the fetch due at its end (when"
                  + " it is 5s away at most; else 401), so a genuine new key is taken even right"
                  + " after a made-up one. Tokens of known keys never wait and never lose them.");

  public static final Setting<Duration> JWKS_RETRY =
      Setting.duration("eureka.jwks-retry", Duration.ofSeconds(10), Duration.ZERO, DAY)
          .about(
              "after a failed fetch of a realm's keys (Keycloak failing: 503; no such realm: 401),"
                  + " no fetch for this long: tokens of unknown keys get that answer at once, tokens"
                  + " of known keys are checked with the keys fetched before");

  public static final Setting<Duration> LOGOUT_SETTLE =
      Setting.duration("eureka.logout-settle", Duration.ofSeconds(10), Duration.ZERO, DAY)
          .about(
              "after a logout event, the session's (`LOGOUT_ALL`: the user's) decisions are asked"
                  + " of Keycloak and not cached for this long: the event comes before Keycloak"
                  + " ends the session");

  public static final Setting<Duration> ADMIN_EVENTS_INTERVAL =
      Setting.duration("eureka.admin-events-interval", Duration.ofSeconds(1), Duration.ZERO, DAY)
          .about(
              "how often each Eureka tenant's realm is asked for its admin events (role, policy,"
                  + " permission and role-mapping changes drop the decisions they touch), by one"
                  + " node for the whole cluster; 0: never")
          .details(
              "Needs `eureka.admin-client-secret` and admin events enabled in the realm. One call"
                  + " per tenant per interval whatever the number of nodes (300 tenants at 1 s:"
                  + " 300 calls a second); what they touch is dropped on every node.");

  public static final Setting<String> KAFKA =
      Setting.text("eureka.kafka", null, "HOST:PORT,...")
          .about(
              "Kafka's bootstrap servers: the logout topics (`{env}.{tenant}.mod-login-keycloak"
                  + ".logout`) are read by every node, `{env}.entitlement` and `{env}.discovery` by one"
                  + " of the cluster; unset: none");

  public static final Setting<String> ENV =
      Setting.text("eureka.env", "folio", "ENV")
          .check(e -> e.matches("[A-Za-z0-9_-]+"), "letters, digits, _ and -")
          .about("FOLIO's environment name, the first part of its topics' names (`ENV`)");

  public static final Setting<Duration> CALL_TIMEOUT =
      Setting.duration("eureka.call-timeout", Duration.ofSeconds(10), MS, DAY)
          .about("how long Keycloak (and mod-users-keycloak) may take to answer a request's call");

  public static final Setting<Duration> TOKEN_REFRESH_BEFORE_EXPIRY =
      Setting.duration(
              "eureka.token-refresh-before-expiry", Duration.ofSeconds(60), Duration.ZERO, DAY)
          .about(
              "the gateway's own tokens (a tenant's service token, modules' system users') are"
                  + " replaced this long before they expire, a token that would then have less than"
                  + " 30 s at nine tenths of its life (the sidecar's"
                  + " `TOKEN_CACHE_REFRESH_PRIOR_EXPIRATION`)");

  public static final Setting<String> SECRET_STORE_TYPE =
      Setting.text("eureka.secret-store.type", null, "TYPE")
          .check(
              t -> t == null || t.equalsIgnoreCase(EPHEMERAL),
              "EPHEMERAL: the gateway reads no other kind of FOLIO's secure store (not AWS_SSM,"
                  + " VAULT, FSSP)")
          .shownDefault("EPHEMERAL with a file, else none")
          .about(
              "FOLIO's secure store, where the credentials of clients and modules' system users are"
                  + " read, named as the sidecar names them (`{env}_{tenant}_{client or user}`):"
                  + " `EPHEMERAL` (the sidecar's `SECRET_STORE_TYPE`), secrets from"
                  + " `eureka.secret-store.file` or the environment")
          .details(
              "A secret `KEY` is the file's `secret-store.ephemeral.content.KEY`, else the"
                  + " environment's `SECRET_STORE_EPHEMERAL_CONTENT_KEY` (upper case, every other"
                  + " character than a letter or digit `_`). Never logged.");

  public static final Setting<String> SECRET_STORE_FILE =
      Setting.text("eureka.secret-store.file", null, "FILE")
          .about(
              "a properties file of secrets in the sidecar's form,"
                  + " `secret-store.ephemeral.content.folio_diku_mod-foo=...`, read at start");

  public static final Setting<String> SECRET_STORE_ENV =
      Setting.text("eureka.secret-store.env", null, "ENV")
          .check(e -> e == null || e.matches("[A-Za-z0-9_-]+"), "letters, digits, _ and -")
          .shownDefault("eureka.env")
          .about("the first part of the secrets' keys (the sidecar's `SECURE_STORE_ENV`)");

  public static final Setting<String> ENTITLEMENTS_URL =
      Setting.text("eureka.entitlements-url", null, "URL")
          .about(
              "mgr-tenant-entitlements: each Eureka tenant's entitled applications are registered"
                  + " and enabled from it (with `eureka.applications-url`), without calling the"
                  + " modules; unset: modules are enabled through the admin API");

  public static final Setting<String> APPLICATIONS_URL =
      Setting.text("eureka.applications-url", null, "URL")
          .about(
              "mgr-applications: where the entitled applications' modules run (their discovery)");

  public static final Setting<Duration> ENTITLEMENTS_REFRESH =
      Setting.duration(
              "eureka.entitlements-refresh", Duration.ofHours(1), Duration.ofSeconds(1), DAY)
          .about(
              "how often every Eureka tenant's entitlements are read again, by one node of the"
                  + " cluster: a safety sweep for an `{env}.entitlement` event lost; changes come"
                  + " by the events and as a tenant is posted")
          .details(
              "The sidecars read their module's every 5 minutes; here one node reads each tenant"
                  + " once per this interval (300 tenants: 300 reads an hour). A failed read is"
                  + " tried again after 1 s, doubling up to 5 minutes or this interval.");

  /** The {@code eureka.*} settings. */
  public static final SettingsSpec SETTINGS =
      SettingsSpec.of(
          KEYCLOAK_URL,
          ISSUER_URL,
          LOGIN_CLIENT_SUFFIX,
          SERVICE_CLIENT_ID,
          ADMIN_CLIENT_ID,
          ADMIN_CLIENT_SECRET,
          CLOCK_SKEW,
          JWKS_REFRESH,
          JWKS_REFETCH_MIN,
          JWKS_RETRY,
          LOGOUT_SETTLE,
          ADMIN_EVENTS_INTERVAL,
          KAFKA,
          ENV,
          CALL_TIMEOUT,
          TOKEN_REFRESH_BEFORE_EXPIRY,
          SECRET_STORE_TYPE,
          SECRET_STORE_FILE,
          SECRET_STORE_ENV,
          ENTITLEMENTS_URL,
          APPLICATIONS_URL,
          ENTITLEMENTS_REFRESH);

  /**
   * @return Eureka off: no Keycloak
   */
  public static EurekaOptions defaults() {
    return from(Settings.of(java.util.Map.of()));
  }

  /**
   * Reads the {@code eureka.*} settings.
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  public static EurekaOptions from(Settings settings) {
    String url = settings.get(KEYCLOAK_URL);
    SecretStore secrets = secrets(settings);
    String adminClientSecret = settings.get(ADMIN_CLIENT_SECRET);
    if (adminClientSecret == null) {
      adminClientSecret = secrets.secret("master", settings.get(ADMIN_CLIENT_ID)).orElse(null);
    }
    String issuer = settings.get(ISSUER_URL);
    return new EurekaOptions(
        strip(url),
        strip(issuer == null ? url : issuer),
        settings.get(LOGIN_CLIENT_SUFFIX),
        settings.get(SERVICE_CLIENT_ID),
        settings.get(ADMIN_CLIENT_ID),
        adminClientSecret,
        settings.get(CLOCK_SKEW),
        settings.get(JWKS_REFRESH),
        settings.get(JWKS_REFETCH_MIN),
        settings.get(JWKS_RETRY),
        settings.get(LOGOUT_SETTLE),
        settings.get(ADMIN_EVENTS_INTERVAL),
        settings.get(KAFKA),
        settings.get(ENV),
        settings.get(CALL_TIMEOUT),
        settings.get(TOKEN_REFRESH_BEFORE_EXPIRY),
        secrets,
        strip(settings.get(ENTITLEMENTS_URL)),
        strip(settings.get(APPLICATIONS_URL)),
        settings.get(ENTITLEMENTS_REFRESH));
  }

  /** The secure store the settings name; the file read now, so that a bad one stops the start. */
  private static SecretStore secrets(Settings settings) {
    String file = settings.get(SECRET_STORE_FILE);
    if (settings.get(SECRET_STORE_TYPE) == null && file == null) {
      return SecretStore.none();
    }
    String env = settings.get(SECRET_STORE_ENV);
    return SecretStore.ephemeral(
        env == null ? settings.get(ENV) : env,
        file == null ? null : java.nio.file.Path.of(file),
        System::getenv);
  }

  private static String strip(String url) {
    return url == null ? null : url.replaceFirst("/+$", "");
  }

  /**
   * @return whether Keycloak is configured, so that tenants can be Eureka tenants
   */
  public boolean enabled() {
    return keycloakUrl != null;
  }

  /**
   * @return whether the gateway can make admin calls (admin events, client secrets)
   */
  public boolean adminCalls() {
    return enabled() && adminClientSecret != null;
  }

  /**
   * @return the issuer of the realm's tokens, as Keycloak writes {@code iss}
   */
  public String issuer(String tenant) {
    return issuerUrl + "/realms/" + tenant;
  }

  /**
   * @return these options with Keycloak at {@code url} (null: Eureka off)
   */
  public EurekaOptions withKeycloak(String url) {
    return new EurekaOptions(
        url,
        url,
        loginClientSuffix,
        serviceClientId,
        adminClientId,
        adminClientSecret,
        clockSkew,
        jwksRefresh,
        jwksRefetchMin,
        jwksRetry,
        logoutSettle,
        adminEventsInterval,
        kafka,
        env,
        callTimeout,
        tokenRefreshBeforeExpiry,
        secrets,
        entitlementsUrl,
        applicationsUrl,
        entitlementsRefresh);
  }

  @Override
  public String toString() {
    return "EurekaOptions[keycloakUrl="
        + keycloakUrl
        + ", issuerUrl="
        + issuerUrl
        + ", adminClientId="
        + adminClientId
        + ", adminClientSecret="
        + (adminClientSecret == null ? "none" : "(given)")
        + ", kafka="
        + kafka
        + ", env="
        + env
        + ", secrets="
        + secrets
        + "]";
  }
}
