package io.okapigw.core.storage;

import io.okapigw.core.registry.DeploymentDescriptor;
import io.okapigw.core.registry.OkapiForm;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.List;

/**
 * Writes rows of Okapi's tables as Okapi writes them, and beside them, in this gateway's tables,
 * what Okapi's rows cannot hold: a descriptor's fields Okapi does not know ({@code
 * okapigw_originals}, used only while Okapi's row is still the one written with it) and the order a
 * tenant's modules were enabled in ({@code okapigw_enable_order}; Okapi keeps a sorted map). The
 * caller runs each method in a transaction.
 */
final class OkapiRows {

  static final String TENANT_ID = "tenantjson->'descriptor'->>'id'";

  private OkapiRows() {}

  /**
   * @return whether inserted ({@code false}: a module with that id exists)
   */
  static Future<Boolean> insertModule(SqlClient c, String id, JsonObject descriptor) {
    JsonObject okapi = OkapiForm.moduleRow(descriptor);
    return c.preparedQuery(
            "INSERT INTO modules (modulejson) VALUES ($1::jsonb)"
                + " ON CONFLICT ((modulejson->'id')) DO NOTHING")
        .execute(Tuple.of(okapi))
        .compose(
            r ->
                r.rowCount() == 1
                    ? keepOriginal(c, "module", id, okapi, descriptor).map(true)
                    : Future.succeededFuture(false));
  }

  /**
   * @return whether inserted ({@code false}: a tenant with that id exists)
   */
  static Future<Boolean> insertTenant(
      SqlClient c, String id, JsonObject descriptor, List<String> enabled) {
    JsonObject okapi = OkapiForm.tenantRow(descriptor);
    JsonObject row = new JsonObject().put("descriptor", okapi).put("enabled", enabledMap(enabled));
    return c.preparedQuery(
            "INSERT INTO tenants (tenantjson) VALUES ($1::jsonb)"
                + " ON CONFLICT ((tenantjson->'descriptor'->'id')) DO NOTHING")
        .execute(Tuple.of(row))
        .compose(
            r ->
                r.rowCount() == 1
                    ? keepOriginal(c, "tenant", id, okapi, descriptor)
                        .compose(v -> enableOrder(c, id, enabled))
                        .map(true)
                    : Future.succeededFuture(false));
  }

  /**
   * @return whether replaced ({@code false}: no such tenant)
   */
  static Future<Boolean> updateTenant(SqlClient c, String id, JsonObject descriptor) {
    JsonObject okapi = OkapiForm.tenantRow(descriptor);
    return c.preparedQuery(
            "UPDATE tenants SET tenantjson = jsonb_set(tenantjson, '{descriptor}', $2::jsonb)"
                + " WHERE "
                + TENANT_ID
                + " = $1")
        .execute(Tuple.of(id, okapi))
        .compose(
            r ->
                r.rowCount() == 1
                    ? keepOriginal(c, "tenant", id, okapi, descriptor).map(true)
                    : Future.succeededFuture(false));
  }

  /** Replaces the tenant's enabled modules (nothing if there is no such tenant). */
  static Future<Void> setEnabled(SqlClient c, String tenant, List<String> enabled) {
    return c.preparedQuery(
            "UPDATE tenants SET tenantjson = jsonb_set(tenantjson, '{enabled}', $2::jsonb)"
                + " WHERE "
                + TENANT_ID
                + " = $1")
        .execute(Tuple.of(tenant, enabledMap(enabled)))
        .compose(
            r -> r.rowCount() == 1 ? enableOrder(c, tenant, enabled) : Future.succeededFuture());
  }

  /**
   * @return whether inserted ({@code false}: an instance with that instId exists, of any module:
   *     Okapi keys instances by instId alone)
   */
  static Future<Boolean> insertDeployment(SqlClient c, DeploymentDescriptor d) {
    return c.preparedQuery(
            "INSERT INTO deployments (json) VALUES ($1::jsonb)"
                + " ON CONFLICT ((json->'instId')) DO NOTHING")
        .execute(Tuple.of(d.toJson()))
        .map(r -> r.rowCount() == 1);
  }

  /**
   * Stores a changed timer as Okapi's {@code TimerDescriptor}: id {@code <tenant>_<product>_<seq>},
   * {@code modified: true}.
   */
  static Future<Void> putTimer(SqlClient c, String tenant, String id, JsonObject entry) {
    JsonObject row =
        new JsonObject()
            .put("id", tenant + "_" + id)
            .put("routingEntry", OkapiForm.routingEntryRow(entry))
            .put("modified", true);
    return c.preparedQuery(
            "INSERT INTO timers (json) VALUES ($1::jsonb)"
                + " ON CONFLICT ((json->'id')) DO UPDATE SET json = EXCLUDED.json")
        .execute(Tuple.of(row))
        .mapEmpty();
  }

  private static JsonObject enabledMap(List<String> enabled) {
    JsonObject map = new JsonObject();
    enabled.forEach(id -> map.put(id, true));
    return map;
  }

  private static Future<Void> enableOrder(SqlClient c, String tenant, List<String> enabled) {
    return c.preparedQuery(
            "INSERT INTO okapigw_enable_order VALUES ($1, $2::jsonb)"
                + " ON CONFLICT (tenant) DO UPDATE SET modules = EXCLUDED.modules")
        .execute(Tuple.of(tenant, new JsonArray(List.copyOf(enabled))))
        .mapEmpty();
  }

  private static Future<Void> keepOriginal(
      SqlClient c, String kind, String id, JsonObject okapi, JsonObject original) {
    if (okapi.equals(original)) {
      return c.preparedQuery("DELETE FROM okapigw_originals WHERE kind = $1 AND id = $2")
          .execute(Tuple.of(kind, id))
          .mapEmpty();
    }
    return c.preparedQuery(
            "INSERT INTO okapigw_originals VALUES ($1, $2, $3::jsonb, $4::jsonb)"
                + " ON CONFLICT (kind, id) DO UPDATE"
                + " SET okapi = EXCLUDED.okapi, original = EXCLUDED.original")
        .execute(Tuple.of(kind, id, okapi, original))
        .mapEmpty();
  }
}
