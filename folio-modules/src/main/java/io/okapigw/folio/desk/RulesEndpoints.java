package io.okapigw.folio.desk;

import io.okapigw.folio.data.CirculationRules;
import io.okapigw.folio.module.Endpoint;
import io.okapigw.folio.module.ModuleError;
import io.okapigw.folio.module.Reply;
import io.okapigw.folio.module.Routes;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * {@code circulation-rules}: {@code GET /circulation/rules/<kind>-policy?item_type_id=&
 * loan_type_id=&patron_type_id=&location_id=} answers the chosen policy id, as FOLIO's rules engine
 * does. The rules are compiled in memory, so these endpoints call no other module.
 */
final class RulesEndpoints {

  static final String[] PARAMETERS = {
    "item_type_id", "loan_type_id", "patron_type_id", "location_id"
  };

  private RulesEndpoints() {}

  static void mount(Routes routes, CirculationRules rules) {
    for (PolicyKind kind : PolicyKind.values()) {
      routes.on("GET", kind.pathPattern(), endpoint(kind, rules));
    }
  }

  private static Endpoint endpoint(PolicyKind kind, CirculationRules rules) {
    return request -> {
      for (String parameter : PARAMETERS) {
        String value = request.query(parameter);
        if (value == null || value.isBlank()) {
          throw ModuleError.badRequest("required query parameter missing: " + parameter);
        }
      }
      String materialType = request.query("item_type_id");
      return Future.succeededFuture(
          Reply.ok(
              new JsonObject()
                  .put(kind.idProperty(), kind.choose(rules, materialType))
                  .put(
                      "appliedRuleConditions",
                      new JsonObject()
                          .put("materialTypeMatch", kind == PolicyKind.LOAN)
                          .put("loanTypeMatch", false)
                          .put("patronGroupMatch", false))));
    };
  }
}
