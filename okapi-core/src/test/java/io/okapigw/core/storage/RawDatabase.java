package io.okapigw.core.storage;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain connection to a test database, as another program has one: Okapi's (the default
 * application name of Vert.x's PostgreSQL client, as Okapi 6.1.5 and 7.0.x connect) or, with {@code
 * application}, any other.
 */
final class RawDatabase implements AutoCloseable {

  private final PgConnection conn;

  private RawDatabase(PgConnection conn) {
    this.conn = conn;
  }

  static RawDatabase connect(Vertx vertx, String uri) {
    return new RawDatabase(PgConnection.connect(vertx, PgConnectOptions.fromUri(uri)).await());
  }

  static RawDatabase connect(Vertx vertx, String uri, String application) {
    PgConnectOptions options =
        PgConnectOptions.fromUri(uri).addProperty("application_name", application);
    return new RawDatabase(PgConnection.connect(vertx, options).await());
  }

  RowSet<Row> sql(String sql, Object... args) {
    return args.length == 0
        ? conn.query(sql).execute().await()
        : conn.preparedQuery(sql).execute(Tuple.from(args)).await();
  }

  /**
   * @return the first column of every row, as JSON
   */
  List<JsonObject> json(String sql, Object... args) {
    List<JsonObject> list = new ArrayList<>();
    sql(sql, args).forEach(r -> list.add(r.getJsonObject(0)));
    return list;
  }

  /**
   * @return whether the table exists
   */
  boolean exists(String table) {
    return sql("SELECT to_regclass($1) IS NOT NULL", table).iterator().next().getBoolean(0);
  }

  /**
   * Writes Okapi's rows, as Okapi 6.1.5 wrote them, into Okapi's tables (created as Okapi creates
   * them), with every {@code url} of {@code deployments} replaced by {@code url} if given.
   *
   * @param resource the rows, JSON: table name to array of rows
   */
  void loadOkapiRows(String resource, String url) {
    JsonObject rows = resourceJson(resource);
    for (OkapiSchema.Table table : OkapiSchema.OKAPI_TABLES) {
      sql(table.create());
      JsonArray list = rows.getJsonArray(table.name(), new JsonArray());
      for (Object row : list) {
        JsonObject json = (JsonObject) row;
        if (url != null && table == OkapiSchema.DEPLOYMENTS && !json.containsKey("nodeId")) {
          json.put("url", url);
        }
        sql("INSERT INTO " + table.name() + " VALUES ($1::jsonb)", json);
      }
    }
  }

  static JsonObject resourceJson(String resource) {
    try (InputStream in = RawDatabase.class.getResourceAsStream(resource)) {
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(resource, e);
    }
  }

  @Override
  public void close() {
    conn.close().await();
  }
}
