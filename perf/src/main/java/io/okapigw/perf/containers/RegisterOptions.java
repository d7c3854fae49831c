package io.okapigw.perf.containers;

import io.okapigw.core.config.Settings;
import java.time.Duration;
import java.util.Set;

/**
 * What {@code register} runs with.
 *
 * @param gateway admin URL of one gateway node (default http://localhost:9130): ours, or
 *     Okapi
 * @param modulesUrl the {@code modules} process's manifest URL (default http://localhost:9300)
 * @param authtokenUrl where the gateway reaches the authtoken module (default
 *     http://localhost:8081); also waited for
 * @param tenant the tenant to create and enable the modules for (default diku)
 * @param username user whose login proves the set-up (default diku_admin; the authtoken
 *     module bootstraps it with {@code --bootstrap})
 * @param password that user's password (default: the demo's, admin); never logged
 * @param members wait until the gateway sees this many cluster members (default 1): the
 *     {@code members} of our gateway's health, the nodes Okapi lists at
 *     {@code /_/discovery/nodes}
 * @param timeout how long to wait for every service to answer (default 180s)
 * @param publicUrl the gateway URL printed in the instructions (default: {@code gateway})
 */
record RegisterOptions(String gateway, String modulesUrl, String authtokenUrl, String tenant,
    String username, String password, int members, Duration timeout, String publicUrl) {

  static final Set<String> KEYS = Set.of("gateway", "modules-url", "authtoken-url", "tenant",
      "username", "password", "members", "timeout", "public-url");

  /** @throws IllegalArgumentException naming a bad setting */
  static RegisterOptions from(Settings settings) {
    settings.checkKnown(KEYS);
    String gateway = trim(settings.string("gateway", "http://localhost:9130"));
    return new RegisterOptions(gateway,
        trim(settings.string("modules-url", "http://localhost:9300")),
        trim(settings.string("authtoken-url", "http://localhost:8081")),
        settings.string("tenant", "diku"), settings.string("username", "diku_admin"),
        settings.string("password", "admin"), settings.integer("members", 1, 1, 64),
        settings.duration("timeout", Duration.ofSeconds(180)),
        trim(settings.string("public-url", gateway)));
  }

  private static String trim(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
