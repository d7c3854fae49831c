package io.okapigw.folio.blocks;

import io.okapigw.folio.data.CirculationData;
import io.okapigw.folio.data.Patron;
import io.okapigw.folio.data.PatronBlock;
import io.okapigw.folio.module.ModuleRequest;
import io.okapigw.folio.module.ModuleSpec;
import io.okapigw.folio.module.Reply;
import io.okapigw.folio.module.Routes;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Simulated mod-patron-blocks ({@code automated-patron-blocks} 0.1): the automatically blocked
 * patrons have one block on borrowing ("maximum number of overdue items reached"); everyone else,
 * known or not, has none.
 */
public final class PatronBlocksModule {

  static final String CONDITION_ID = "584fbd4f-6a34-4730-a6ca-73a6a6a9d845";
  static final String MESSAGE = "Patron has reached maximum allowed number of overdue items";

  private final Set<String> blockedUserIds;

  private PatronBlocksModule(Set<String> blockedUserIds) {
    this.blockedUserIds = blockedUserIds;
  }

  /**
   * @return the module serving the data's automated blocks
   */
  public static ModuleSpec spec(CirculationData data) {
    Set<String> blocked =
        data.patrons().stream()
            .filter(p -> p.block() == PatronBlock.AUTOMATED)
            .map(Patron::id)
            .collect(Collectors.toUnmodifiableSet());
    PatronBlocksModule module = new PatronBlocksModule(blocked);
    return ModuleSpec.of(
        "mod-patron-blocks",
        new Routes().on("GET", "/automated-patron-blocks/{id}", module::blocks));
  }

  private Future<Reply> blocks(ModuleRequest request) {
    JsonArray blocks = new JsonArray();
    if (blockedUserIds.contains(request.pathParam("id"))) {
      blocks.add(
          new JsonObject()
              .put("patronBlockConditionId", CONDITION_ID)
              .put("blockBorrowing", true)
              .put("blockRenewals", false)
              .put("blockRequests", false)
              .put("message", MESSAGE));
    }
    return Future.succeededFuture(Reply.ok(new JsonObject().put("automatedPatronBlocks", blocks)));
  }
}
