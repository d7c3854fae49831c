package io.okapigw.folio.module;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class JsonStoreTest {

  private final JsonStore store = new JsonStore("barcode");

  @Test
  void search_byIndexedField_findsReplacedValueOnly() {
    store.put(new JsonObject().put("id", "1").put("barcode", "A"));
    store.put(new JsonObject().put("id", "1").put("barcode", "B"));

    assertThat(store.search(CqlQuery.parse("barcode==A"), 0, 10).totalRecords()).isZero();
    assertThat(store.search(CqlQuery.parse("barcode==B"), 0, 10).records())
        .extracting(r -> r.getString("id"))
        .containsExactly("1");
  }

  @Test
  void search_limitAndOffset_pageButCountAll() {
    for (int i = 0; i < 5; i++) {
      store.put(new JsonObject().put("id", "r" + i).put("kind", "x"));
    }

    JsonStore.Page page = store.search(CqlQuery.parse("kind==x"), 1, 2);

    assertThat(page.totalRecords()).isEqualTo(5);
    assertThat(page.records()).extracting(r -> r.getString("id")).containsExactly("r1", "r2");
  }

  @Test
  void get_returnsACopy() {
    store.put(new JsonObject().put("id", "1").put("barcode", "A"));

    store.get("1").orElseThrow().put("barcode", "changed");

    assertThat(store.get("1").orElseThrow().getString("barcode")).isEqualTo("A");
  }

  @Test
  void putUnless_conflictWithAnotherRecord_refusesButAllowsReplacingItself() {
    CqlQuery sameBarcode = CqlQuery.parse("barcode==A");
    store.put(new JsonObject().put("id", "1").put("barcode", "A"));

    assertThat(store.putUnless(new JsonObject().put("id", "2").put("barcode", "A"), sameBarcode))
        .isFalse();
    assertThat(
            store.putUnless(
                new JsonObject().put("id", "1").put("barcode", "A").put("note", "x"), sameBarcode))
        .isTrue();
    assertThat(store.size()).isEqualTo(1);
  }
}
