package io.okapigw.core.storage;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a registry kept by an earlier version of this gateway ({@code okapigw_modules}, {@code
 * okapigw_tenants}, {@code okapigw_enabled}, {@code okapigw_deployments}, {@code okapigw_timers})
 * into Okapi's tables, in the transaction that creates them. The old tables are then renamed {@code
 * okapigw_v1_*} and kept, so nothing is lost: a row whose id Okapi's tables already hold is left
 * out (and counted in a warning) but stays in the kept table.
 */
final class LayoutMigration {

  private static final Logger log = LoggerFactory.getLogger(LayoutMigration.class);

  private static final List<String> OLD =
      List.of(
          "okapigw_modules",
          "okapigw_tenants",
          "okapigw_enabled",
          "okapigw_deployments",
          "okapigw_timers");

  private final SqlConnection c;
  private final List<String> moved = new ArrayList<>();
  private final List<String> skipped = new ArrayList<>();

  private LayoutMigration(SqlConnection c) {
    this.c = c;
  }

  /** Moves what an earlier layout holds, if there is one. */
  static Future<Void> run(SqlConnection c) {
    return c.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                + " AND tablename IN ('"
                + String.join("', '", OLD)
                + "')")
        .execute()
        .compose(
            rows -> {
              List<String> found = new ArrayList<>();
              rows.forEach(r -> found.add(r.getString(0)));
              return found.isEmpty()
                  ? Future.succeededFuture()
                  : new LayoutMigration(c).move(Set.copyOf(found));
            });
  }

  private Future<Void> move(Set<String> found) {
    Future<Void> done = Future.succeededFuture();
    if (found.contains("okapigw_modules")) {
      done = done.compose(v -> modules());
    }
    if (found.contains("okapigw_tenants")) {
      done = done.compose(v -> tenants(found.contains("okapigw_enabled")));
    }
    if (found.contains("okapigw_deployments")) {
      done = done.compose(v -> deployments());
    }
    if (found.contains("okapigw_timers")) {
      done = done.compose(v -> timers());
    }
    for (String table : found) {
      done =
          done.compose(
              v ->
                  c.query(
                          "ALTER TABLE "
                              + table
                              + " RENAME TO "
                              + table.replace("okapigw_", "okapigw_v1_"))
                      .execute()
                      .mapEmpty());
    }
    return done.onSuccess(v -> report());
  }

  private Future<Void> modules() {
    return each(
        "SELECT id, descriptor FROM okapigw_modules",
        row -> "module " + row.getString(0),
        row -> OkapiRows.insertModule(c, row.getString(0), new JsonObject(row.getString(1))));
  }

  private Future<Void> tenants(boolean withEnabled) {
    String sql =
        withEnabled
            ? "SELECT t.id, t.descriptor, e.modules FROM okapigw_tenants t"
                + " LEFT JOIN okapigw_enabled e ON e.tenant = t.id"
            : "SELECT id, descriptor, NULL FROM okapigw_tenants";
    return each(
        sql,
        row -> "tenant " + row.getString(0),
        row ->
            OkapiRows.insertTenant(
                c,
                row.getString(0),
                new JsonObject(row.getString(1)),
                row.getString(2) == null
                    ? List.of()
                    : new JsonArray(row.getString(2)).stream().map(String.class::cast).toList()));
  }

  private Future<Void> deployments() {
    return each(
        "SELECT srvc_id, inst_id, url FROM okapigw_deployments",
        row -> "instance " + row.getString(1) + " of " + row.getString(0),
        row ->
            OkapiRows.insertDeployment(
                c, new DeploymentDescriptor(row.getString(0), row.getString(1), row.getString(2))));
  }

  private Future<Void> timers() {
    return each(
        "SELECT tenant, id, routing_entry FROM okapigw_timers",
        row -> "timer " + row.getString(1) + " of " + row.getString(0),
        row ->
            OkapiRows.putTimer(
                    c, row.getString(0), row.getString(1), new JsonObject(row.getString(2)))
                .map(true));
  }

  /** Writes each row in turn; counts what was moved and what Okapi's tables already had. */
  private Future<Void> each(
      String sql, Function<Row, String> name, Function<Row, Future<Boolean>> write) {
    return c.query(sql)
        .execute()
        .compose(
            rows -> {
              Future<Void> chain = Future.succeededFuture();
              for (Row row : rows) {
                chain =
                    chain.compose(
                        v ->
                            write
                                .apply(row)
                                .map(done -> (done ? moved : skipped).add(name.apply(row)))
                                .mapEmpty());
              }
              return chain;
            });
  }

  private void report() {
    log.info(
        "storage: moved {} rows (modules, tenants, deployments, timers) of an earlier version's"
            + " okapigw_* tables into Okapi's tables; the old tables are kept as okapigw_v1_*",
        moved.size());
    if (!skipped.isEmpty()) {
      log.warn(
          "storage: Okapi's tables already held {}; these stay as they were there (the earlier"
              + " rows are in the okapigw_v1_* tables)",
          skipped);
    }
  }
}
