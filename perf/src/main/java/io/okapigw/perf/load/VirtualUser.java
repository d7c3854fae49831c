package io.okapigw.perf.load;

import java.util.ArrayList;
import java.util.List;

/**
 * A librarian at a desk: logged in once, works through its own rows in turn, one operation at a
 * time, at its own gateway until that one goes down. Only its own chain of operations touches it.
 */
final class VirtualUser {

  private final int id;
  private final List<BarcodeRow> rows;
  private String token;
  private int gateway;
  private int next;

  /**
   * @param id its number, for messages; it starts at gateway {@code id mod gateways}
   * @param rows its own rows, never another user's
   * @param gateways how many gateways the run spreads over
   */
  VirtualUser(int id, List<BarcodeRow> rows, int gateways) {
    if (rows.isEmpty()) {
      throw new IllegalArgumentException("virtual user " + id + " has no barcode rows");
    }
    this.id = id;
    this.rows = new ArrayList<>(rows);
    this.gateway = id % gateways;
  }

  int id() {
    return id;
  }

  /**
   * @return from the login, or {@code null} when the tenant has no auth module
   */
  String token() {
    return token;
  }

  void loggedIn(String token) {
    this.token = token;
  }

  /**
   * @return the index of the gateway this user works at
   */
  int gateway() {
    return gateway;
  }

  void moveTo(int gateway) {
    this.gateway = gateway;
  }

  /**
   * @return the next row, starting over after the last
   */
  BarcodeRow nextRow() {
    next = next % rows.size();
    BarcodeRow row = rows.get(next);
    next++;
    return row;
  }

  /**
   * Leaves the row out of the rest of the run (its item's state is unknown after a lost operation),
   * unless it is the user's last one.
   */
  void retire(BarcodeRow row) {
    int index = rows.indexOf(row);
    if (index < 0 || rows.size() == 1) {
      return;
    }
    rows.remove(index);
    if (index < next) {
      next--;
    }
  }
}
