package io.okapigw.perf.kit.launch;

import io.okapigw.folio.register.AuthtokenDescriptor;
import io.okapigw.folio.register.GatewayRegistration;
import io.okapigw.folio.register.GatewayRegistration.Module;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;

/** Registers a benchmark's modules on a gateway, the real authtoken module first. */
public final class BenchModules {

  private BenchModules() {}

  /**
   * Creates {@code tenant} and enables for it the authtoken module (so every request passes its
   * auth filter) and then each of {@code modules}.
   *
   * @param gatewayUrl the gateway's admin URL
   * @param authtokenUrl where the authtoken module runs
   * @param modules the handlers' modules
   * @return done; failed naming the step that went wrong
   */
  public static Future<Void> registerWithAuth(
      Vertx vertx, String gatewayUrl, String tenant, String authtokenUrl, List<Module> modules) {
    List<Module> all = new ArrayList<>();
    all.add(new Module(AuthtokenDescriptor.read(), authtokenUrl));
    all.addAll(modules);
    return GatewayRegistration.register(vertx, gatewayUrl, tenant, all);
  }
}
