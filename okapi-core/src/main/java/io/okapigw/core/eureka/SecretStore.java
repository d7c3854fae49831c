package io.okapigw.core.eureka;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.UnaryOperator;

/**
 * FOLIO's secure store, where the sidecar finds the credentials it logs in with, in the kind this
 * gateway reads: applications-poc-tools' {@code EphemeralStore} ({@code SECRET_STORE_TYPE=
 * EPHEMERAL}), whose secrets are configuration. Keys are named as the sidecar names them ({@code
 * SecureStoreUtils.tenantStoreKey}): {@code {env}_{tenant}_{client or user}}, e.g. {@code
 * folio_master_folio-backend-admin-client}, {@code folio_diku_sidecar-module-access-client}, {@code
 * folio_diku_diku-login-application}, {@code folio_diku_mod-users-bl} (a module's system user).
 * Each is read from the file {@code eureka.secret-store.file} as the sidecar's properties name it,
 * {@code secret-store.ephemeral.content.KEY=VALUE}, else from the environment variable Quarkus
 * reads that property from ({@code SECRET_STORE_EPHEMERAL_CONTENT_} and the key in upper case,
 * every other character than a letter or digit an underscore). Values are never logged, never shown
 * ({@link #toString} names the keys' count only).
 */
public final class SecretStore {

  /** The sidecar's property prefix of an ephemeral store's secrets. */
  static final String PREFIX = "secret-store.ephemeral.content.";

  private static final SecretStore NONE = new SecretStore(null, Map.of(), name -> null);

  private final String env;
  private final Map<String, String> file;
  private final UnaryOperator<String> environment;

  private SecretStore(String env, Map<String, String> file, UnaryOperator<String> environment) {
    this.env = env;
    this.file = file;
    this.environment = environment;
  }

  /**
   * @return no store: every secret is missing
   */
  public static SecretStore none() {
    return NONE;
  }

  /**
   * An ephemeral store.
   *
   * @param env the keys' first part ({@code SECURE_STORE_ENV}, else {@code ENV}: {@code folio})
   * @param file the properties file, or null for the environment alone
   * @param environment reads an environment variable ({@link System#getenv(String)})
   * @throws IllegalArgumentException naming the file if it cannot be read
   */
  public static SecretStore ephemeral(String env, Path file, UnaryOperator<String> environment) {
    return new SecretStore(env, file == null ? Map.of() : read(file), environment);
  }

  private static Map<String, String> read(Path file) {
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(in);
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          EurekaOptions.SECRET_STORE_FILE.key()
              + ": "
              + file
              + " cannot be read as a properties file ("
              + e.getClass().getSimpleName()
              + ")");
    }
    Map<String, String> secrets = new HashMap<>();
    for (String name : properties.stringPropertyNames()) {
      if (name.startsWith(PREFIX) && name.length() > PREFIX.length()) {
        secrets.put(name.substring(PREFIX.length()), properties.getProperty(name).trim());
      }
    }
    if (secrets.isEmpty()) {
      throw new IllegalArgumentException(
          EurekaOptions.SECRET_STORE_FILE.key()
              + ": "
              + file
              + " has no "
              + PREFIX
              + "KEY=VALUE line (the sidecar's form)");
    }
    return Map.copyOf(secrets);
  }

  /**
   * @return whether this is a store (not {@link #none})
   */
  public boolean present() {
    return env != null;
  }

  /**
   * @return the key of a tenant's client or user ({@code master}: the admin client), as the
   *     sidecar's {@code SecureStoreUtils.tenantStoreKey} writes it
   */
  public String key(String tenant, String name) {
    return env + "_" + tenant + "_" + name;
  }

  /**
   * @return the secret of the tenant's client or user, if the store has it
   */
  public Optional<String> secret(String tenant, String name) {
    if (!present()) {
      return Optional.empty();
    }
    String key = key(tenant, name);
    String found = file.get(key);
    if (found == null || found.isEmpty()) {
      found = environment.apply(environmentName(key));
    }
    return found == null || found.isEmpty() ? Optional.empty() : Optional.of(found);
  }

  /**
   * @return the environment variable Quarkus reads property {@code secret-store.ephemeral.content.
   *     KEY} from
   */
  static String environmentName(String key) {
    return (PREFIX + key).toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
  }

  @Override
  public String toString() {
    return present()
        ? "SecretStore[EPHEMERAL, env=" + env + ", " + file.size() + " secrets in the file]"
        : "SecretStore[none]";
  }
}
