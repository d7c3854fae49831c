package io.okapigw.perf.circulation;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers simulated modules on an Okapi-compatible gateway through its admin API, one step at
 * a time and idempotently: creates the tenant if missing, posts each descriptor unless the
 * gateway has it, points discovery at each module's URL (replacing instances at other URLs),
 * and enables each module for the tenant in list order (providers first) unless enabled.
 * Works with our gateway and with Okapi (checked against 6.1.5): only the admin calls and
 * answers both have (201 on creation, 404 for what is missing, 204 on delete).
 */
public final class GatewayRegistration {

  private static final Logger log = LoggerFactory.getLogger(GatewayRegistration.class);

  private record Answer(int status, Buffer body) {
  }

  /**
   * A module to register: its descriptor and the URL of its one instance.
   *
   * @param descriptor the module descriptor (its {@code id} names the module)
   * @param url the instance's base URL
   */
  public record Module(JsonObject descriptor, String url) {

    /** @return the module id from the descriptor */
    public String id() {
      return descriptor.getString("id");
    }

    static Module of(ModuleDeployment deployment) {
      return new Module(deployment.descriptor(), deployment.url());
    }
  }

  private final HttpClientAgent client;
  private final String adminUrl;

  private GatewayRegistration(Vertx vertx, String adminUrl) {
    this.client = vertx.createHttpClient();
    this.adminUrl = adminUrl.endsWith("/") ? adminUrl.substring(0, adminUrl.length() - 1)
        : adminUrl;
  }

  /**
   * @param adminUrl the gateway's URL, e.g. {@code http://localhost:9130}
   * @param tenant the tenant to enable the modules for, created if missing
   * @param modules in an order that can be enabled one by one
   * @return done; failed with an {@link IllegalStateException} naming the step and the
   *     gateway's answer
   */
  public static Future<Void> register(Vertx vertx, String adminUrl, String tenant,
      List<Module> modules) {
    GatewayRegistration registration = new GatewayRegistration(vertx, adminUrl);
    Promise<Void> done = Promise.promise();
    // Build the chain on a Vert.x context: from a plain thread, a response future can complete
    // before body() is attached, and the body is then lost (the call never completes).
    vertx.getOrCreateContext().runOnContext(v -> registration.run(tenant, modules)
        .eventually(registration.client::close).onComplete(done));
    return done.future();
  }

  /** Registers simulated modules; see {@link #register(Vertx, String, String, List)}. */
  public static Future<Void> registerDeployments(Vertx vertx, String adminUrl, String tenant,
      List<ModuleDeployment> modules) {
    return register(vertx, adminUrl, tenant, modules.stream().map(Module::of).toList());
  }

  private Future<Void> run(String tenant, List<Module> modules) {
    Future<Void> chain = ensureTenant(tenant);
    for (Module module : modules) {
      chain = chain.compose(v -> ensureDescriptor(module)).compose(v -> ensureDiscovery(module));
    }
    for (Module module : modules) {
      chain = chain.compose(v -> ensureEnabled(tenant, module.id()));
    }
    return chain.onSuccess(v -> log.info("{} modules registered and enabled for tenant {} on {}",
        modules.size(), tenant, adminUrl));
  }

  private Future<Void> ensureTenant(String tenant) {
    return unlessFound("/_/proxy/tenants/" + tenant, () -> post("/_/proxy/tenants",
        new JsonObject().put("id", tenant)));
  }

  private Future<Void> ensureDescriptor(Module module) {
    return unlessFound("/_/proxy/modules/" + module.id(),
        () -> post("/_/proxy/modules", module.descriptor()));
  }

  private Future<Void> ensureEnabled(String tenant, String moduleId) {
    return unlessFound("/_/proxy/tenants/" + tenant + "/modules/" + moduleId,
        () -> post("/_/proxy/tenants/" + tenant + "/modules", new JsonObject().put("id",
            moduleId)));
  }

  private Future<Void> ensureDiscovery(Module module) {
    String path = "/_/discovery/modules/" + module.id();
    JsonObject deployment = deployment(module);
    return send(HttpMethod.GET, path, null).compose(answer -> {
      JsonArray instances = answer.status() == 200 ? answer.body().toJsonArray() : new JsonArray();
      if (instances.size() == 1 && module.url().equals(instances.getJsonObject(0)
          .getString("url"))) {
        return Future.succeededFuture();
      }
      Future<Void> cleared = instances.isEmpty() ? Future.succeededFuture()
          : send(HttpMethod.DELETE, path, null).map(a -> expect(a, "DELETE " + path, 204));
      return cleared.compose(v -> post("/_/discovery/modules", deployment));
    });
  }

  /**
   * The deployment of the module's one instance. The {@code instId} is the module id: Okapi
   * refuses a deployment without one ("Needs instId") unless it launched the module itself.
   */
  static JsonObject deployment(Module module) {
    return new JsonObject().put("srvcId", module.id()).put("instId", module.id())
        .put("url", module.url());
  }

  private Future<Void> unlessFound(String path, Supplier<Future<Void>> create) {
    return send(HttpMethod.GET, path, null).compose(answer -> {
      if (answer.status() == 200) {
        return Future.succeededFuture();
      }
      expect(answer, "GET " + path, 404);
      return create.get();
    });
  }

  private Future<Void> post(String path, JsonObject body) {
    return send(HttpMethod.POST, path, body).map(a -> expect(a, "POST " + path, 201));
  }

  private Future<Answer> send(HttpMethod method, String path, JsonObject body) {
    RequestOptions options = new RequestOptions().setMethod(method)
        .setAbsoluteURI(adminUrl + path).putHeader("Accept", "application/json, text/plain");
    return client.request(options)
        .compose(request -> body == null ? request.send()
            : request.putHeader("Content-Type", "application/json").send(body.toBuffer()))
        .compose(response -> response.body().map(b -> new Answer(response.statusCode(), b)))
        .recover(e -> Future.failedFuture(new IllegalStateException(method + " " + adminUrl
            + path + " failed: " + e.getMessage(), e)));
  }

  private static Void expect(Answer answer, String step, int status) {
    if (answer.status() != status) {
      throw new IllegalStateException(step + " answered " + answer.status() + " (expected "
          + status + "): " + answer.body());
    }
    return null;
  }
}
