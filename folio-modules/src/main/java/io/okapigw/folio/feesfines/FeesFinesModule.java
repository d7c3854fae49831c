package io.okapigw.folio.feesfines;

import static io.okapigw.folio.module.StoreEndpoints.byId;
import static io.okapigw.folio.module.StoreEndpoints.collection;

import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.data.Patron;
import io.okapigw.folio.data.PatronBlock;
import io.okapigw.folio.module.JsonStore;
import io.okapigw.folio.module.ModuleSpec;
import io.okapigw.folio.module.Routes;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Simulated mod-feesfines ({@code feesfines} 19.1): manual patron blocks (one per manually blocked
 * patron, blocking borrowing), overdue fine and lost item fee policies, and accounts (no fees are
 * charged, so every account query is empty).
 */
public final class FeesFinesModule {

  private FeesFinesModule() {}

  /**
   * @return the module serving the data's manual blocks and fee policies
   */
  public static ModuleSpec spec(CirculationData data) {
    JsonStore blocks = new JsonStore("userId");
    data.patrons().stream()
        .filter(p -> p.block() == PatronBlock.MANUAL)
        .map(FeesFinesModule::manualBlock)
        .forEach(blocks::put);
    JsonStore overdue = new JsonStore();
    overdue.put(data.policies().overdueFinePolicy().toOverdueFinePolicyJson());
    JsonStore lost = new JsonStore();
    lost.put(data.policies().lostItemPolicy().toLostItemPolicyJson());
    JsonStore accounts = new JsonStore("loanId", "userId");
    return ModuleSpec.of(
        "mod-feesfines",
        new Routes()
            .on("GET", "/manualblocks", collection(blocks, "manualblocks"))
            .on("GET", "/manualblocks/{id}", byId(blocks, "manual block"))
            .on("GET", "/overdue-fines-policies", collection(overdue, "overdueFinePolicies"))
            .on("GET", "/overdue-fines-policies/{id}", byId(overdue, "overdue fine policy"))
            .on("GET", "/lost-item-fees-policies", collection(lost, "lostItemFeePolicies"))
            .on("GET", "/lost-item-fees-policies/{id}", byId(lost, "lost item fee policy"))
            .on("GET", "/accounts", collection(accounts, "accounts")));
  }

  private static JsonObject manualBlock(Patron patron) {
    return new JsonObject()
        .put("id", UUID.nameUUIDFromBytes(patron.id().getBytes(StandardCharsets.UTF_8)).toString())
        .put("type", "Manual")
        .put("userId", patron.id())
        .put("desc", "Library card reported lost")
        .put("patronMessage", "Please contact the circulation desk")
        .put("borrowing", true)
        .put("renewals", true)
        .put("requests", true);
  }
}
