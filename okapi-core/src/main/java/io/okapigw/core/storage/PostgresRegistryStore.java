package io.okapigw.core.storage;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.ModuleDescriptor;
import io.okapigw.core.registry.RegistryStore;
import io.okapigw.core.registry.TenantDescriptor;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The registry in PostgreSQL, shared by every node and durable across a full restart. A write's
 * future completes only after its transaction has committed. Descriptors are kept as the JSON text
 * that was posted.
 */
final class PostgresRegistryStore implements RegistryStore {

  private static final String SCHEMA =
      """
      CREATE TABLE IF NOT EXISTS okapigw_modules (id text PRIMARY KEY, descriptor text NOT NULL);
      CREATE TABLE IF NOT EXISTS okapigw_tenants (id text PRIMARY KEY, descriptor text NOT NULL);
      CREATE TABLE IF NOT EXISTS okapigw_enabled (tenant text PRIMARY KEY, modules text NOT NULL);
      CREATE TABLE IF NOT EXISTS okapigw_deployments (srvc_id text, inst_id text,
        url text NOT NULL, PRIMARY KEY (srvc_id, inst_id));
      CREATE TABLE IF NOT EXISTS okapigw_install_jobs (tenant text, id text, job text NOT NULL,
        PRIMARY KEY (tenant, id));
      """;

  private static final long LOCK_KEY = 727274;
  private static final String TABLES = "the registry tables";

  private final Pool pool;

  private PostgresRegistryStore(Pool pool) {
    this.pool = pool;
  }

  /** Connects and creates the tables if missing (several nodes may do this at once). */
  static Future<RegistryStore> connect(Vertx vertx, PgConnectOptions connect) {
    return PostgresTables.open(vertx, connect, 8, LOCK_KEY, SCHEMA, TABLES)
        .map(PostgresRegistryStore::new);
  }

  /** Creates the tables if missing. */
  static Future<Void> createTables(Vertx vertx, PgConnectOptions connect) {
    return PostgresTables.open(vertx, connect, 1, LOCK_KEY, SCHEMA, TABLES).compose(Pool::close);
  }

  private Future<RowSet<Row>> sql(String sql, Tuple args) {
    return pool.preparedQuery(sql).execute(args);
  }

  private <T> Future<List<T>> rows(String sql, Function<Row, T> mapper) {
    return pool.query(sql)
        .execute()
        .map(
            rows -> {
              List<T> list = new java.util.ArrayList<>();
              rows.forEach(row -> list.add(mapper.apply(row)));
              return list;
            });
  }

  @Override
  public Future<Boolean> insertModule(ModuleDescriptor module) {
    return sql(
            "INSERT INTO okapigw_modules VALUES ($1, $2) ON CONFLICT DO NOTHING",
            Tuple.of(module.id(), module.toJson().encode()))
        .map(r -> r.rowCount() == 1);
  }

  @Override
  public Future<Optional<ModuleDescriptor>> module(String id) {
    return sql("SELECT descriptor FROM okapigw_modules WHERE id = $1", Tuple.of(id))
        .map(
            rows ->
                rows.size() == 0
                    ? Optional.empty()
                    : Optional.of(moduleOf(rows.iterator().next())));
  }

  @Override
  public Future<List<ModuleDescriptor>> modules() {
    return rows(
        "SELECT descriptor FROM okapigw_modules ORDER BY id", PostgresRegistryStore::moduleOf);
  }

  @Override
  public Future<Boolean> deleteModule(String id) {
    return sql("DELETE FROM okapigw_modules WHERE id = $1", Tuple.of(id))
        .map(r -> r.rowCount() == 1);
  }

  @Override
  public Future<Boolean> insertTenant(TenantDescriptor tenant) {
    return sql(
            "INSERT INTO okapigw_tenants VALUES ($1, $2) ON CONFLICT DO NOTHING",
            Tuple.of(tenant.id(), tenant.toJson().encode()))
        .map(r -> r.rowCount() == 1);
  }

  @Override
  public Future<Boolean> updateTenant(TenantDescriptor tenant) {
    return sql(
            "UPDATE okapigw_tenants SET descriptor = $2 WHERE id = $1",
            Tuple.of(tenant.id(), tenant.toJson().encode()))
        .map(r -> r.rowCount() == 1);
  }

  @Override
  public Future<Optional<TenantDescriptor>> tenant(String id) {
    return sql("SELECT id, descriptor FROM okapigw_tenants WHERE id = $1", Tuple.of(id))
        .map(
            rows ->
                rows.size() == 0
                    ? Optional.empty()
                    : Optional.of(tenantOf(rows.iterator().next())));
  }

  @Override
  public Future<List<TenantDescriptor>> tenants() {
    return rows(
        "SELECT id, descriptor FROM okapigw_tenants ORDER BY id", PostgresRegistryStore::tenantOf);
  }

  @Override
  public Future<Boolean> deleteTenant(String id) {
    return pool.withTransaction(
            conn ->
                conn.preparedQuery("DELETE FROM okapigw_enabled WHERE tenant = $1")
                    .execute(Tuple.of(id))
                    .compose(
                        v ->
                            conn.preparedQuery("DELETE FROM okapigw_install_jobs WHERE tenant = $1")
                                .execute(Tuple.of(id)))
                    .compose(
                        v ->
                            conn.preparedQuery("DELETE FROM okapigw_tenants WHERE id = $1")
                                .execute(Tuple.of(id))))
        .map(r -> r.rowCount() == 1);
  }

  @Override
  public Future<List<String>> enabledModules(String tenant) {
    return sql("SELECT modules FROM okapigw_enabled WHERE tenant = $1", Tuple.of(tenant))
        .map(
            rows ->
                rows.size() == 0
                    ? List.<String>of()
                    : new JsonArray(rows.iterator().next().getString(0))
                        .stream().map(String.class::cast).toList());
  }

  @Override
  public Future<Void> setEnabledModules(String tenant, List<String> moduleIds) {
    return sql(
            "INSERT INTO okapigw_enabled VALUES ($1, $2) "
                + "ON CONFLICT (tenant) DO UPDATE SET modules = EXCLUDED.modules",
            Tuple.of(tenant, new JsonArray(List.copyOf(moduleIds)).encode()))
        .mapEmpty();
  }

  @Override
  public Future<Boolean> insertDeployment(DeploymentDescriptor d) {
    return sql(
            "INSERT INTO okapigw_deployments VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            Tuple.of(d.srvcId(), d.instId(), d.url()))
        .map(r -> r.rowCount() == 1);
  }

  @Override
  public Future<List<DeploymentDescriptor>> deployments() {
    return rows(
        "SELECT srvc_id, inst_id, url FROM okapigw_deployments ORDER BY srvc_id, inst_id",
        row -> new DeploymentDescriptor(row.getString(0), row.getString(1), row.getString(2)));
  }

  @Override
  public Future<Integer> deleteDeployments(String srvcId, String instId) {
    return instId == null
        ? sql("DELETE FROM okapigw_deployments WHERE srvc_id = $1", Tuple.of(srvcId))
            .map(RowSet::rowCount)
        : sql(
                "DELETE FROM okapigw_deployments WHERE srvc_id = $1 AND inst_id = $2",
                Tuple.of(srvcId, instId))
            .map(RowSet::rowCount);
  }

  private static ModuleDescriptor moduleOf(Row row) {
    return ModuleDescriptor.fromJson(new JsonObject(row.getString("descriptor")));
  }

  private static TenantDescriptor tenantOf(Row row) {
    return TenantDescriptor.fromJson(
        new JsonObject(row.getString("descriptor")), row.getString("id"));
  }

  @Override
  public Future<Void> putInstallJob(String tenant, String jobId, JsonObject job) {
    return sql(
            "INSERT INTO okapigw_install_jobs VALUES ($1, $2, $3) "
                + "ON CONFLICT (tenant, id) DO UPDATE SET job = EXCLUDED.job",
            Tuple.of(tenant, jobId, job.encode()))
        .mapEmpty();
  }

  @Override
  public Future<Optional<JsonObject>> installJob(String tenant, String jobId) {
    return sql(
            "SELECT job FROM okapigw_install_jobs WHERE tenant = $1 AND id = $2",
            Tuple.of(tenant, jobId))
        .map(
            rows ->
                rows.size() == 0
                    ? Optional.empty()
                    : Optional.of(new JsonObject(rows.iterator().next().getString(0))));
  }

  @Override
  public Future<List<JsonObject>> installJobs(String tenant) {
    return sql("SELECT job FROM okapigw_install_jobs WHERE tenant = $1", Tuple.of(tenant))
        .map(
            rows -> {
              List<JsonObject> list = new java.util.ArrayList<>();
              rows.forEach(row -> list.add(new JsonObject(row.getString(0))));
              return list;
            });
  }

  @Override
  public Future<Boolean> deleteInstallJob(String tenant, String jobId) {
    return sql(
            "DELETE FROM okapigw_install_jobs WHERE tenant = $1 AND id = $2",
            Tuple.of(tenant, jobId))
        .map(r -> r.rowCount() == 1);
  }
}
