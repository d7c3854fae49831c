package io.okapigw.core.storage;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The tables: Okapi's five, created exactly as Okapi 6.1.5 and 7.0.x create them ({@code
 * PostgresTable.init}: one JSONB column and a unique index on the id inside it), and this gateway's
 * own beside them ({@code okapigw_*}: what Okapi's tables cannot hold). A trigger on Okapi's tables
 * refuses writes from anything but this gateway while a gateway node is connected ({@link
 * OneWriter}).
 */
final class OkapiSchema {

  /** Okapi's table and the JSONB column it keeps its JSON in. */
  record Table(String name, String column, String idExpression, String index) {

    String create() {
      return "CREATE TABLE IF NOT EXISTS "
          + name
          + " ( "
          + column
          + " JSONB NOT NULL );\nCREATE UNIQUE INDEX IF NOT EXISTS "
          + index
          + " ON "
          + name
          + " USING btree(("
          + idExpression
          + "));\n";
    }
  }

  static final Table MODULES = new Table("modules", "modulejson", "modulejson->'id'", "module_id");
  static final Table TENANTS =
      new Table("tenants", "tenantjson", "tenantjson->'descriptor'->'id'", "tenant_id");
  static final Table DEPLOYMENTS = new Table("deployments", "json", "json->'instId'", "inst_id");
  static final Table ENV = new Table("env", "json", "json->'name'", "name");
  static final Table TIMERS = new Table("timers", "json", "json->'id'", "timers_tenant_timer_id");

  /** In the order Okapi prepares them. */
  static final List<Table> OKAPI_TABLES = List.of(ENV, DEPLOYMENTS, TENANTS, TIMERS, MODULES);

  /** What marks this gateway's connections: the trigger lets them write. */
  static final String APPLICATION_NAME = "okapigw-gateway";

  private static final String OURS =
      """
      CREATE TABLE IF NOT EXISTS okapigw_originals (kind text, id text, okapi jsonb NOT NULL,
        original jsonb NOT NULL, PRIMARY KEY (kind, id));
      CREATE TABLE IF NOT EXISTS okapigw_enable_order (tenant text PRIMARY KEY,
        modules jsonb NOT NULL);
      CREATE TABLE IF NOT EXISTS okapigw_install_jobs (tenant text, id text, job text NOT NULL,
        PRIMARY KEY (tenant, id));
      """;

  private static final String ONE_WRITER =
      """
      CREATE OR REPLACE FUNCTION okapigw_one_writer() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        IF current_setting('application_name') IS DISTINCT FROM '%1$s' AND EXISTS (
            SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND classid = %2$d AND objid = %3$d AND objsubid = 2) THEN
          RAISE EXCEPTION 'okapi-gateway is serving this database: Okapi may write to table %% '
            'again once every gateway node has stopped (docs/operations.md, Moving from Okapi)',
            TG_TABLE_NAME USING ERRCODE = '55006';
        END IF;
        RETURN NULL;
      END $f$;
      DO $d$ DECLARE t text; BEGIN
        FOREACH t IN ARRAY ARRAY['modules', 'tenants', 'deployments', 'env', 'timers'] LOOP
          IF NOT EXISTS (SELECT 1 FROM pg_trigger
              WHERE tgname = 'okapigw_one_writer' AND tgrelid = t::regclass) THEN
            EXECUTE format('CREATE TRIGGER okapigw_one_writer BEFORE INSERT OR UPDATE OR DELETE'
              ' ON %%I FOR EACH STATEMENT EXECUTE FUNCTION okapigw_one_writer()', t);
          END IF;
        END LOOP;
      END $d$;
      """
          .formatted(APPLICATION_NAME, OneWriter.LOCK_CLASS, OneWriter.LOCK_NODES);

  private OkapiSchema() {}

  /**
   * Creates what is missing: Okapi's tables, ours and the trigger. Fails, changing nothing, if a
   * table of Okapi's name exists without Okapi's JSONB column (another program's table).
   */
  static Future<Void> create(SqlConnection conn) {
    return checkOkapiTables(conn)
        .compose(v -> conn.query(okapiTables() + OURS + ONE_WRITER).execute())
        .mapEmpty();
  }

  /** Creates Okapi's tables only, as Okapi's {@code purgedatabase} leaves them. */
  static Future<Void> createOkapiTables(SqlConnection conn) {
    return conn.query(okapiTables()).execute().mapEmpty();
  }

  private static String okapiTables() {
    return OKAPI_TABLES.stream().map(Table::create).collect(Collectors.joining());
  }

  /**
   * Drops Okapi's tables, every {@code okapigw_*} table (earlier layouts too) and the trigger
   * function: the data of both Okapi and this gateway, nothing else.
   */
  static Future<Void> dropAll(SqlConnection conn) {
    return conn.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                + " AND tablename LIKE 'okapigw\\_%'")
        .execute()
        .compose(
            rows -> {
              List<String> tables = new ArrayList<>();
              OKAPI_TABLES.forEach(t -> tables.add(t.name()));
              rows.forEach(r -> tables.add(r.getString(0)));
              String drops =
                  tables.stream()
                      .map(t -> "DROP TABLE IF EXISTS \"" + t.replace("\"", "\"\"") + "\";\n")
                      .collect(Collectors.joining());
              return conn.query(drops + "DROP FUNCTION IF EXISTS okapigw_one_writer() CASCADE")
                  .execute();
            })
        .mapEmpty();
  }

  private static Future<Void> checkOkapiTables(SqlConnection conn) {
    return conn.query(
            "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_class c"
                + " LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0"
                + " AND NOT a.attisdropped WHERE c.relkind IN ('r', 'p', 'v')"
                + " AND c.relnamespace = current_schema()::regnamespace"
                + " AND c.relname IN ('modules', 'tenants', 'deployments', 'env', 'timers')")
        .execute()
        .compose(
            rows -> {
              Map<String, Map<String, String>> columns = new HashMap<>();
              for (Row r : rows) {
                columns
                    .computeIfAbsent(r.getString(0), t -> new HashMap<>())
                    .put(r.getString(1), r.getString(2));
              }
              for (Table t : OKAPI_TABLES) {
                Map<String, String> found = columns.get(t.name());
                if (found != null && !"jsonb".equals(found.get(t.column()))) {
                  return Future.failedFuture(
                      new IllegalStateException(
                          "storage: the database has a table "
                              + t.name()
                              + " that is not Okapi's (no JSONB column "
                              + t.column()
                              + "; it has "
                              + found.keySet()
                              + "): is it another program's database?"));
                }
              }
              return Future.succeededFuture();
            });
  }
}
