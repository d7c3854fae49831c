package io.okapigw.perf.load.faults;

import io.okapigw.authtoken.users.Bootstrap;
import io.okapigw.demo.DemoOptions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The fault scenarios' probe user, whose permissions a scenario grants and revokes. */
final class ProbePermissions {

  /** The probe user of the demo tenant. */
  static final String PROBE = "diku_probe";

  private ProbePermissions() {}

  /**
   * Sets the probe's permissions on the authtoken module's own port.
   *
   * @param json the permissions, a JSON array
   * @throws IllegalStateException if the module does not answer 204
   */
  static void set(String authtokenUrl, Duration timeout, String json)
      throws IOException, InterruptedException {
    String id = Bootstrap.idOf(DemoOptions.TENANT, PROBE);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(authtokenUrl + "/perms/users/" + id + "/permissions"))
            .timeout(timeout)
            .header("X-Okapi-Tenant", DemoOptions.TENANT)
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(json))
            .build();
    int status =
        LoopbackHttp.CLIENT.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    if (status != 204) {
      throw new IllegalStateException("PUT permissions of " + PROBE + " answered " + status);
    }
  }
}
