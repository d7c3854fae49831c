package io.okapigw.core.storage;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The registry in Okapi's tables ({@code modules}, {@code tenants} with their {@code enabled} map,
 * {@code deployments}), so Okapi 6.1.5 or 7.0.x reads what this gateway wrote and the other way
 * round; what Okapi's rows cannot hold is beside them ({@link OkapiRows}). Install jobs, which
 * Okapi keeps in memory only, are in {@code okapigw_install_jobs}. A write's future completes after
 * its transaction has committed.
 */
final class PostgresRegistryStore implements RegistryStore {

  private static final String MODULES =
      "SELECT CASE WHEN o.okapi = m.modulejson THEN o.original ELSE m.modulejson END"
          + " FROM modules m LEFT JOIN okapigw_originals o"
          + " ON o.kind = 'module' AND o.id = m.modulejson->>'id'";

  private static final String TENANTS =
      "SELECT CASE WHEN o.okapi = t.tenantjson->'descriptor' THEN o.original"
          + " ELSE t.tenantjson->'descriptor' END"
          + " FROM tenants t LEFT JOIN okapigw_originals o"
          + " ON o.kind = 'tenant' AND o.id = t."
          + OkapiRows.TENANT_ID;

  private final Pool pool;

  PostgresRegistryStore(Pool pool) {
    this.pool = pool;
  }

  private <T> Future<List<T>> rows(String sql, Tuple args, Function<Row, T> mapper) {
    return pool.preparedQuery(sql)
        .execute(args)
        .map(
            rows -> {
              List<T> list = new ArrayList<>();
              rows.forEach(row -> list.add(mapper.apply(row)));
              return list;
            });
  }

  private static <T> Optional<T> first(List<T> list) {
    return list.stream().findFirst();
  }

  @Override
  public Future<Boolean> insertModule(ModuleDescriptor module) {
    return pool.withTransaction(c -> OkapiRows.insertModule(c, module.id(), module.toJson()));
  }

  @Override
  public Future<Optional<ModuleDescriptor>> module(String id) {
    return rows(MODULES + " WHERE m.modulejson->>'id' = $1", Tuple.of(id), this::moduleOf)
        .map(PostgresRegistryStore::first);
  }

  @Override
  public Future<List<ModuleDescriptor>> modules() {
    return rows(MODULES, Tuple.tuple(), this::moduleOf)
        .map(list -> sorted(list, ModuleDescriptor::id));
  }

  @Override
  public Future<Boolean> deleteModule(String id) {
    return pool.withTransaction(
        c ->
            c.preparedQuery("DELETE FROM okapigw_originals WHERE kind = 'module' AND id = $1")
                .execute(Tuple.of(id))
                .compose(
                    v ->
                        c.preparedQuery("DELETE FROM modules WHERE modulejson->>'id' = $1")
                            .execute(Tuple.of(id)))
                .map(r -> r.rowCount() == 1));
  }

  @Override
  public Future<Boolean> insertTenant(TenantDescriptor tenant) {
    return pool.withTransaction(
        c -> OkapiRows.insertTenant(c, tenant.id(), tenant.toJson(), List.of()));
  }

  @Override
  public Future<Boolean> updateTenant(TenantDescriptor tenant) {
    return pool.withTransaction(c -> OkapiRows.updateTenant(c, tenant.id(), tenant.toJson()));
  }

  @Override
  public Future<Optional<TenantDescriptor>> tenant(String id) {
    return rows(TENANTS + " WHERE t." + OkapiRows.TENANT_ID + " = $1", Tuple.of(id), this::tenantOf)
        .map(PostgresRegistryStore::first);
  }

  @Override
  public Future<List<TenantDescriptor>> tenants() {
    return rows(TENANTS, Tuple.tuple(), this::tenantOf)
        .map(list -> sorted(list, TenantDescriptor::id));
  }

  @Override
  public Future<Boolean> deleteTenant(String id) {
    return pool.withTransaction(
        c ->
            c.preparedQuery("DELETE FROM okapigw_originals WHERE kind = 'tenant' AND id = $1")
                .execute(Tuple.of(id))
                .compose(
                    v ->
                        c.preparedQuery("DELETE FROM okapigw_enable_order WHERE tenant = $1")
                            .execute(Tuple.of(id)))
                .compose(
                    v ->
                        c.preparedQuery("DELETE FROM okapigw_install_jobs WHERE tenant = $1")
                            .execute(Tuple.of(id)))
                .compose(
                    v ->
                        c.preparedQuery(
                                "DELETE FROM tenants WHERE " + OkapiRows.TENANT_ID + " = $1")
                            .execute(Tuple.of(id)))
                .map(r -> r.rowCount() == 1));
  }

  @Override
  public Future<List<String>> enabledModules(String tenant) {
    return rows(
            "SELECT t.tenantjson->'enabled', e.modules FROM tenants t"
                + " LEFT JOIN okapigw_enable_order e ON e.tenant = t."
                + OkapiRows.TENANT_ID
                + " WHERE t."
                + OkapiRows.TENANT_ID
                + " = $1",
            Tuple.of(tenant),
            row -> OkapiReads.enabled(row.getJsonObject(0), row.getJsonArray(1)))
        .map(list -> list.isEmpty() ? List.of() : list.get(0));
  }

  @Override
  public Future<Map<String, List<String>>> allEnabledModules() {
    return pool.preparedQuery(
            "SELECT t."
                + OkapiRows.TENANT_ID
                + ", t.tenantjson->'enabled', e.modules FROM tenants t"
                + " LEFT JOIN okapigw_enable_order e ON e.tenant = t."
                + OkapiRows.TENANT_ID)
        .execute(Tuple.tuple())
        .map(
            rows -> {
              Map<String, List<String>> all = new TreeMap<>();
              rows.forEach(
                  row ->
                      all.put(
                          row.getString(0),
                          OkapiReads.enabled(row.getJsonObject(1), row.getJsonArray(2))));
              return all;
            });
  }

  @Override
  public Future<Void> setEnabledModules(String tenant, List<String> moduleIds) {
    return pool.withTransaction(c -> OkapiRows.setEnabled(c, tenant, moduleIds));
  }

  @Override
  public Future<Boolean> insertDeployment(DeploymentDescriptor d) {
    return pool.withTransaction(c -> OkapiRows.insertDeployment(c, d));
  }

  @Override
  public Future<List<DeploymentDescriptor>> deployments() {
    return rows("SELECT json FROM deployments", Tuple.tuple(), row -> row.getJsonObject(0))
        .map(
            rows ->
                rows.stream()
                    .filter(OkapiReads::served)
                    .map(OkapiReads::deployment)
                    .sorted(DeploymentDescriptor.ORDER)
                    .toList());
  }

  @Override
  public Future<Integer> deleteDeployments(String srvcId, String instId) {
    return instId == null
        ? pool.preparedQuery("DELETE FROM deployments WHERE json->>'srvcId' = $1")
            .execute(Tuple.of(srvcId))
            .map(RowSet::rowCount)
        : pool.preparedQuery(
                "DELETE FROM deployments WHERE json->>'srvcId' = $1 AND json->>'instId' = $2")
            .execute(Tuple.of(srvcId, instId))
            .map(RowSet::rowCount);
  }

  private ModuleDescriptor moduleOf(Row row) {
    JsonObject json = row.getJsonObject(0);
    try {
      return ModuleDescriptor.fromJson(json);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "storage: module " + json.getValue("id") + " in table modules: " + e.getMessage(), e);
    }
  }

  /** A stored tenant is read as stored: the rules for new tenant ids applied when it was made. */
  private TenantDescriptor tenantOf(Row row) {
    JsonObject json = row.getJsonObject(0);
    return new TenantDescriptor(json.getString("id"), json);
  }

  private static <T> List<T> sorted(List<T> list, Function<T, String> id) {
    list.sort(Comparator.comparing(id));
    return list;
  }

  @Override
  public Future<Void> putInstallJob(String tenant, String jobId, JsonObject job) {
    return pool.preparedQuery(
            "INSERT INTO okapigw_install_jobs VALUES ($1, $2, $3) "
                + "ON CONFLICT (tenant, id) DO UPDATE SET job = EXCLUDED.job")
        .execute(Tuple.of(tenant, jobId, job.encode()))
        .mapEmpty();
  }

  @Override
  public Future<Optional<JsonObject>> installJob(String tenant, String jobId) {
    return rows(
            "SELECT job FROM okapigw_install_jobs WHERE tenant = $1 AND id = $2",
            Tuple.of(tenant, jobId),
            row -> new JsonObject(row.getString(0)))
        .map(PostgresRegistryStore::first);
  }

  @Override
  public Future<List<JsonObject>> installJobs(String tenant) {
    return rows(
        "SELECT job FROM okapigw_install_jobs WHERE tenant = $1",
        Tuple.of(tenant),
        row -> new JsonObject(row.getString(0)));
  }

  @Override
  public Future<Boolean> deleteInstallJob(String tenant, String jobId) {
    return pool.preparedQuery("DELETE FROM okapigw_install_jobs WHERE tenant = $1 AND id = $2")
        .execute(Tuple.of(tenant, jobId))
        .map(r -> r.rowCount() == 1);
  }
}
