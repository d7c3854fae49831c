package io.okapigw.folio.storage;

import io.okapigw.folio.module.CqlQuery;
import io.okapigw.folio.module.JsonStore;
import io.okapigw.folio.module.ModuleError;
import io.okapigw.folio.module.ModuleRequest;
import io.okapigw.folio.module.Reply;
import io.okapigw.folio.module.Routes;
import io.okapigw.folio.module.StoreEndpoints;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.UUID;

/**
 * {@code loan-storage}: loans, with the rule FOLIO's database enforces by a unique index: at most
 * one open loan per item. Creating or reopening a loan while another open loan for the same item
 * exists fails atomically with 422. Closed loans beyond the newest {@value #KEEP_CLOSED} are
 * dropped so long load runs don't grow memory.
 */
final class LoanStorage {

  static final int KEEP_CLOSED = 10_000;
  static final String OPEN = "Open";

  private final JsonStore loans = new JsonStore("itemId", "userId");
  private final Deque<String> closed = new ArrayDeque<>();

  void mount(Routes routes) {
    routes
        .on("GET", "/loan-storage/loans", StoreEndpoints.collection(loans, "loans"))
        .on("GET", "/loan-storage/loans/{id}", StoreEndpoints.byId(loans, "loan"))
        .on("POST", "/loan-storage/loans", this::create)
        .on("PUT", "/loan-storage/loans/{id}", this::replace);
  }

  private Future<Reply> create(ModuleRequest request) {
    JsonObject loan = validate(request.json());
    if (loan.getString("id") == null) {
      loan.put("id", UUID.randomUUID().toString());
    }
    if (loans.get(loan.getString("id")).isPresent()) {
      throw ModuleError.unprocessable("loan already exists", "id", loan.getString("id"));
    }
    store(loan);
    return Future.succeededFuture(Reply.created(loan));
  }

  private Future<Reply> replace(ModuleRequest request) {
    String id = request.pathParam("id");
    JsonObject loan = validate(StoreEndpoints.withId(request.json(), id));
    if (loans.get(id).isEmpty()) {
      throw ModuleError.notFound("loan not found: " + id);
    }
    store(loan);
    if (!isOpen(loan)) {
      retain(id);
    }
    return Future.succeededFuture(Reply.noContent());
  }

  private void store(JsonObject loan) {
    if (!isOpen(loan)) {
      loans.put(loan);
      return;
    }
    String itemId = loan.getString("itemId");
    CqlQuery openForItem =
        CqlQuery.parse(
            "itemId==" + CqlQuery.quote(itemId) + " and status.name==" + CqlQuery.quote(OPEN));
    if (!loans.putUnless(loan, openForItem)) {
      throw ModuleError.unprocessable(
          "Cannot have more than one open loan for the same item", "itemId", itemId);
    }
  }

  private synchronized void retain(String closedId) {
    closed.addLast(closedId);
    if (closed.size() > KEEP_CLOSED) {
      loans.remove(closed.removeFirst());
    }
  }

  private static JsonObject validate(JsonObject loan) {
    for (String field : new String[] {"itemId", "userId", "loanDate", "action"}) {
      if (!(loan.getValue(field) instanceof String)) {
        throw ModuleError.unprocessable("must not be null", field, null);
      }
    }
    if (!(loan.getValue("status") instanceof JsonObject)) {
      throw ModuleError.unprocessable("must not be null", "status", null);
    }
    return loan;
  }

  private static boolean isOpen(JsonObject loan) {
    return OPEN.equals(loan.getJsonObject("status").getString("name"));
  }
}
