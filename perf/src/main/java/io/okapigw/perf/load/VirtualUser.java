package io.okapigw.perf.load;

import java.util.List;

/**
 * A librarian at a desk: logged in once, works through its own rows in turn, one operation at a
 * time. Only its own chain of operations touches it.
 */
final class VirtualUser {

  private final List<BarcodeRow> rows;
  private final String token;
  private int next;

  /**
   * @param id its number, for messages
   * @param rows its own rows, never another user's
   * @param token from the login, or {@code null} when the tenant has no auth module
   */
  VirtualUser(int id, List<BarcodeRow> rows, String token) {
    if (rows.isEmpty()) {
      throw new IllegalArgumentException("virtual user " + id + " has no barcode rows");
    }
    this.rows = List.copyOf(rows);
    this.token = token;
  }

  String token() {
    return token;
  }

  /** @return the next row, starting over after the last */
  BarcodeRow nextRow() {
    BarcodeRow row = rows.get(next);
    next = (next + 1) % rows.size();
    return row;
  }
}
