package io.okapigw.folio.module;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A simulated module's {@code _tenant} 2.0 interface, as FOLIO's storage modules (RMB) implement
 * it: {@code POST /_/tenant} answers 201 with {@code Location: /_/tenant/{id}} and starts a job
 * that creates the tenant's data; {@code GET /_/tenant/{id}} reports it ({@code complete}, {@code
 * error}, {@code messages}); {@code DELETE /_/tenant/{id}} removes it. A disable with {@code purge}
 * drops the tenant's data at once (204). The gateway's install drives it.
 */
public final class TenantJobs {

  private final Map<String, JsonObject> jobs = new ConcurrentHashMap<>();
  private final Set<String> tenants = ConcurrentHashMap.newKeySet();
  private final Function<String, String> createData;

  /**
   * @param createData creates the data of a tenant (idempotent) and says what it made, for the
   *     job's messages
   */
  public TenantJobs(Function<String, String> createData) {
    this.createData = createData;
  }

  /** Adds the three endpoints of {@code _tenant} 2.0 to {@code routes}. */
  public TenantJobs mount(Routes routes) {
    routes
        .on("POST", "/_/tenant", this::post)
        .on("GET", "/_/tenant/{id}", this::get)
        .on("DELETE", "/_/tenant/{id}", this::delete);
    return this;
  }

  /**
   * @return the tenants whose data this module created and still holds
   */
  public Set<String> tenants() {
    return Set.copyOf(tenants);
  }

  private Future<Reply> post(ModuleRequest request) {
    String tenant = request.header(OkapiHeaders.TENANT);
    JsonObject body = request.json();
    if (body.getString("module_to") == null) {
      if (body.getBoolean("purge", false)) {
        tenants.remove(tenant);
      }
      return Future.succeededFuture(Reply.noContent());
    }
    String id = UUID.randomUUID().toString();
    JsonObject job =
        new JsonObject()
            .put("id", id)
            .put("tenant", tenant)
            .put("tenantAttributes", body)
            .put("complete", false);
    jobs.put(id, job);
    Context context = Vertx.currentContext();
    context.runOnContext(v -> run(job, tenant));
    return Future.succeededFuture(new Reply(201, job.copy(), "/_/tenant/" + id));
  }

  private void run(JsonObject job, String tenant) {
    try {
      String made = createData.apply(tenant);
      tenants.add(tenant);
      job.put("messages", new JsonArray().add(made));
    } catch (RuntimeException e) {
      job.put("error", "cannot create the data of tenant " + tenant + ": " + e.getMessage());
    }
    job.put("complete", true);
  }

  private Future<Reply> get(ModuleRequest request) {
    JsonObject job = jobs.get(request.pathParam("id"));
    return job == null
        ? Future.failedFuture(ModuleError.notFound("no tenant job " + request.pathParam("id")))
        : Future.succeededFuture(Reply.ok(job.copy()));
  }

  private Future<Reply> delete(ModuleRequest request) {
    return jobs.remove(request.pathParam("id")) == null
        ? Future.failedFuture(ModuleError.notFound("no tenant job " + request.pathParam("id")))
        : Future.succeededFuture(Reply.noContent());
  }
}
