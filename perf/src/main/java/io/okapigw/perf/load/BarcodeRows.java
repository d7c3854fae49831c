package io.okapigw.perf.load;

import io.okapigw.folio.data.CirculationData;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows the virtual users work on: read from the CSV the demo writes (header {@code
 * itemBarcode,userBarcode,servicePointId}, plain comma-separated values, no quoting) or taken from
 * generated data, and split so that no two users share an item or a patron.
 */
public final class BarcodeRows {

  private static final List<String> COLUMNS =
      List.of("itemBarcode", "userBarcode", "servicePointId");

  private BarcodeRows() {}

  /** Reads and parses a barcode CSV off the event loop; fails with a message naming the file. */
  static Future<List<BarcodeRow>> read(Vertx vertx, Path file) {
    return vertx
        .fileSystem()
        .readFile(file.toString())
        .recover(
            e ->
                Future.failedFuture(
                    new IllegalArgumentException(
                        "--barcodes: cannot read "
                            + file.toAbsolutePath()
                            + " (start the demo first, or give --items N): "
                            + e.getMessage())))
        .map(csv -> parse(csv.toString(), file.toString()));
  }

  /**
   * @param csv the file's text; its first line names the columns, in any order
   * @param source the file name, for error messages
   * @throws IllegalArgumentException for a missing column, a short line or no rows
   */
  static List<BarcodeRow> parse(String csv, String source) {
    List<String> lines = csv.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("--barcodes " + source + " is empty");
    }
    List<String> header = Arrays.asList(lines.get(0).split(",", -1));
    int[] index = COLUMNS.stream().mapToInt(header::indexOf).toArray();
    for (int c = 0; c < index.length; c++) {
      if (index[c] < 0) {
        throw new IllegalArgumentException(
            "--barcodes "
                + source
                + ": header has no column "
                + COLUMNS.get(c)
                + " (expected "
                + String.join(",", COLUMNS)
                + ")");
      }
    }
    List<BarcodeRow> rows = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      rows.add(row(lines.get(i).split(",", -1), index, source, i + 1));
    }
    if (rows.isEmpty()) {
      throw new IllegalArgumentException("--barcodes " + source + " has a header but no rows");
    }
    return rows;
  }

  private static BarcodeRow row(String[] cells, int[] index, String source, int lineNumber) {
    String[] values = new String[index.length];
    for (int c = 0; c < index.length; c++) {
      values[c] = index[c] < cells.length ? cells[index[c]].strip() : "";
      if (values[c].isEmpty()) {
        throw new IllegalArgumentException(
            "--barcodes " + source + " line " + lineNumber + ": no " + COLUMNS.get(c));
      }
    }
    return new BarcodeRow(values[0], values[1], values[2]);
  }

  /**
   * @return the rows the demo writes for this library: each item, active patrons in turn
   */
  public static List<BarcodeRow> of(CirculationData data) {
    List<String> items = data.itemBarcodes();
    List<String> patrons = data.activePatronBarcodes();
    List<BarcodeRow> rows = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      rows.add(
          new BarcodeRow(items.get(i), patrons.get(i % patrons.size()), data.servicePointId()));
    }
    return rows;
  }

  /**
   * Splits rows among users: each item goes to one user only (a repeated item keeps its first row),
   * and all rows of one patron go to the same user, because the simulated circulation allows one
   * check-out per patron at a time (a second concurrent one gets 503). Patrons are dealt out in
   * turn, and each user keeps the rows in file order.
   *
   * @throws IllegalArgumentException naming {@code --users} if there are fewer patrons than users
   */
  static List<List<BarcodeRow>> partition(List<BarcodeRow> rows, int users) {
    Map<String, BarcodeRow> byItem = new LinkedHashMap<>();
    rows.forEach(row -> byItem.putIfAbsent(row.itemBarcode(), row));
    Map<String, Integer> userOfPatron = new LinkedHashMap<>();
    List<List<BarcodeRow>> parts = new ArrayList<>();
    for (int u = 0; u < users; u++) {
      parts.add(new ArrayList<>());
    }
    for (BarcodeRow row : byItem.values()) {
      int user = userOfPatron.computeIfAbsent(row.userBarcode(), p -> userOfPatron.size() % users);
      parts.get(user).add(row);
    }
    if (userOfPatron.size() < users) {
      throw new IllegalArgumentException(
          "--users "
              + users
              + " is more than the "
              + userOfPatron.size()
              + " patrons in the barcodes: two users would share a patron");
    }
    return parts;
  }
}
