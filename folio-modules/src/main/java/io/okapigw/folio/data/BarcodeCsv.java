package io.okapigw.folio.data;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Path;
import java.util.List;

/**
 * The barcodes a load test checks out and in, as CSV with a header line ({@code
 * itemBarcode,userBarcode,servicePointId}): one row per item, patrons that may borrow taken in
 * turn. JMeter's CSV Data Set reads it; so can a person.
 */
public final class BarcodeCsv {

  public static final String HEADER = "itemBarcode,userBarcode,servicePointId";

  private BarcodeCsv() {}

  /** Writes the CSV (creating its folder); off the event loop. */
  public static Future<Void> write(Vertx vertx, Path file, CirculationData data) {
    Buffer csv = Buffer.buffer(HEADER).appendString("\n");
    List<String> patrons = data.activePatronBarcodes();
    List<String> items = data.itemBarcodes();
    for (int i = 0; i < items.size(); i++) {
      csv.appendString(items.get(i))
          .appendString(",")
          .appendString(patrons.get(i % patrons.size()))
          .appendString(",")
          .appendString(data.servicePointId())
          .appendString("\n");
    }
    Path dir = file.toAbsolutePath().getParent();
    return vertx
        .fileSystem()
        .mkdirs(dir.toString())
        .compose(v -> vertx.fileSystem().writeFile(file.toString(), csv));
  }
}
