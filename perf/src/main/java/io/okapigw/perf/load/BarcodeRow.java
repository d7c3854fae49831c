package io.okapigw.perf.load;

/**
 * One line of the barcode CSV: an item, the patron who borrows it, the desk.
 *
 * @param itemBarcode the item checked out and in
 * @param userBarcode the patron it is checked out to
 * @param servicePointId the service point of both operations
 */
public record BarcodeRow(String itemBarcode, String userBarcode, String servicePointId) {}
