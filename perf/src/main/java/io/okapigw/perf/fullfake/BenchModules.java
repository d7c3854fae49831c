package io.okapigw.perf.fullfake;

import io.okapigw.perf.circulation.GatewayRegistration;
import io.okapigw.perf.circulation.GatewayRegistration.Module;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Registers a benchmark's modules on a gateway, the real authtoken module first. */
public final class BenchModules {

  private static final String AUTHTOKEN_DESCRIPTOR = "/descriptors/ModuleDescriptor.json";

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
    all.add(new Module(authtokenDescriptor(), authtokenUrl));
    all.addAll(modules);
    return GatewayRegistration.register(vertx, gatewayUrl, tenant, all);
  }

  /**
   * @return the authtoken module's descriptor, from its jar on the class path
   */
  static JsonObject authtokenDescriptor() {
    try (InputStream in = BenchModules.class.getResourceAsStream(AUTHTOKEN_DESCRIPTOR)) {
      if (in == null) {
        throw new IllegalStateException(
            "authtoken descriptor " + AUTHTOKEN_DESCRIPTOR + " missing from the class path");
      }
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
