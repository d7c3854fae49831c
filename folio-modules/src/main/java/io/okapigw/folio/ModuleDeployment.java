package io.okapigw.folio;

import io.okapigw.folio.module.CallCounts;
import io.okapigw.folio.module.Faults;
import io.okapigw.folio.module.ModuleServer;
import io.okapigw.folio.register.GatewayRegistration.Module;
import io.vertx.core.json.JsonObject;

/** One running simulated module: its descriptor, where it listens, what it served and called. */
public final class ModuleDeployment {

  private final ModuleServer server;
  private final String deploymentId;

  ModuleDeployment(ModuleServer server, String deploymentId) {
    this.server = server;
    this.deploymentId = deploymentId;
  }

  /**
   * @return the module id, e.g. {@code mod-circulation-24.5.0}
   */
  public String id() {
    return server.id();
  }

  /**
   * @return a copy of the module descriptor, ready to POST to {@code /_/proxy/modules}
   */
  public JsonObject descriptor() {
    return server.descriptor();
  }

  /**
   * @return the base URL, {@code http://127.0.0.1:<port>}, for {@code /_/discovery/modules}
   */
  public String url() {
    return server.url();
  }

  /**
   * @return what {@link io.okapigw.folio.register.GatewayRegistration} registers: the descriptor
   *     and the URL
   */
  public Module module() {
    return new Module(descriptor(), url());
  }

  /**
   * @return requests served, by handler key ({@code "GET /users/{id}"})
   */
  public CallCounts served() {
    return server.served();
  }

  /**
   * @return calls made to other modules through the gateway, by the called handler's key
   */
  public CallCounts calls() {
    return server.calls();
  }

  /**
   * @return the failures this module is told to simulate (none at start)
   */
  public Faults faults() {
    return server.faults();
  }

  String deploymentId() {
    return deploymentId;
  }
}
