package io.okapigw.perf.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.okapigw.folio.data.CirculationData;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reading the barcode CSV and splitting it among virtual users. */
class BarcodeRowsTest {

  private static final List<BarcodeRow> DEMO =
      BarcodeRows.of(CirculationData.generate(CirculationData.Options.defaults()));

  @Test
  void partition_demoRows_givesEachItemAndPatronToOneUserOnly() {
    List<List<BarcodeRow>> parts = BarcodeRows.partition(DEMO, 8);

    Set<String> items = new HashSet<>();
    Set<String> patrons = new HashSet<>();
    for (List<BarcodeRow> part : parts) {
      assertThat(part).isNotEmpty();
      Set<String> own = new HashSet<>();
      part.forEach(row -> own.add(row.userBarcode()));
      for (String patron : own) {
        assertThat(patrons.add(patron)).as("patron %s in two users", patron).isTrue();
      }
      part.forEach(
          row ->
              assertThat(items.add(row.itemBarcode()))
                  .as("item %s twice", row.itemBarcode())
                  .isTrue());
    }
    assertThat(items).hasSize(1000);
  }

  @Test
  void partition_demoRows_isBalanced() {
    List<List<BarcodeRow>> parts = BarcodeRows.partition(DEMO, 32);

    assertThat(parts).allSatisfy(part -> assertThat(part.size()).isBetween(30, 33));
  }

  @Test
  void partition_repeatedItem_keepsItsFirstRowOnly() {
    List<BarcodeRow> rows =
        List.of(
            new BarcodeRow("I1", "P1", "sp"),
            new BarcodeRow("I1", "P2", "sp"),
            new BarcodeRow("I2", "P2", "sp"));

    List<List<BarcodeRow>> parts = BarcodeRows.partition(rows, 2);

    assertThat(parts.get(0)).containsExactly(new BarcodeRow("I1", "P1", "sp"));
    assertThat(parts.get(1)).containsExactly(new BarcodeRow("I2", "P2", "sp"));
  }

  @Test
  void partition_morePatronsWantedThanThereAre_isRefusedNamingUsers() {
    assertThatThrownBy(() -> BarcodeRows.partition(DEMO.subList(0, 5), 6))
        .hasMessageContaining("--users 6");
  }

  @Test
  void parse_headerInAnyOrder_readsByName() {
    List<BarcodeRow> rows =
        BarcodeRows.parse(
            "servicePointId,itemBarcode,userBarcode\r\n" + "sp1,I000001,P000002\r\n\r\n", "x.csv");

    assertThat(rows).containsExactly(new BarcodeRow("I000001", "P000002", "sp1"));
  }

  @Test
  void parse_missingColumn_isRefusedNamingIt() {
    assertThatThrownBy(() -> BarcodeRows.parse("itemBarcode,userBarcode\nI1,P1\n", "x.csv"))
        .hasMessageContaining("x.csv")
        .hasMessageContaining("servicePointId");
  }

  @Test
  void parse_shortLine_isRefusedWithItsNumber() {
    assertThatThrownBy(
            () ->
                BarcodeRows.parse(
                    "itemBarcode,userBarcode,servicePointId\n" + "I1,P1,sp\nI2,P2\n", "x.csv"))
        .hasMessageContaining("line 3");
  }

  @Test
  void of_demoData_matchesTheCsvTheDemoWrites() {
    assertThat(DEMO).hasSize(1000);
    assertThat(DEMO.get(0).itemBarcode()).isEqualTo("I000000");
    assertThat(DEMO.get(0).userBarcode()).isEqualTo("P000001");
  }
}
