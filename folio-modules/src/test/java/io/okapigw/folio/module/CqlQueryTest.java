package io.okapigw.folio.module;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class CqlQueryTest {

  private static final JsonObject LOAN =
      new JsonObject().put("itemId", "i-1").put("status", new JsonObject().put("name", "Open"));

  @Test
  void parse_equalitiesJoinedByAnd_matchDottedFields() {
    CqlQuery query = CqlQuery.parse("itemId==\"i-1\" and status.name==\"Open\"");

    assertThat(query.test(LOAN)).isTrue();
    assertThat(query.test(LOAN.copy().put("itemId", "i-2"))).isFalse();
    assertThat(query.exact("itemId")).contains("i-1");
  }

  @Test
  void parse_parenthesesSortByAndUnquotedValues_areAccepted() {
    CqlQuery query = CqlQuery.parse("(itemId==i-1) and (status.name=Open) sortBy loanDate/desc");

    assertThat(query.clauses()).hasSize(2);
    assertThat(query.test(LOAN)).isTrue();
  }

  @Test
  void parse_trailingStar_matchesPrefix() {
    CqlQuery query = CqlQuery.parse("status==\"Open*\"");

    assertThat(query.test(new JsonObject().put("status", "Open - Not yet filled"))).isTrue();
    assertThat(query.test(new JsonObject().put("status", "Closed - Filled"))).isFalse();
    assertThat(query.exact("status")).isEmpty();
  }

  @Test
  void quote_escapesQuotesSoValuesRoundTrip() {
    String odd = "a\"b\\c*";
    CqlQuery query = CqlQuery.parse("barcode==" + CqlQuery.quote(odd));

    assertThat(query.exact("barcode")).contains(odd);
  }

  @Test
  void parse_blankOrAllRecords_matchesEverything() {
    assertThat(CqlQuery.parse(null).test(LOAN)).isTrue();
    assertThat(CqlQuery.parse("cql.allRecords=1").test(LOAN)).isTrue();
  }

  @Test
  void parse_unsupportedSyntax_fails400NamingThePart() {
    assertThatThrownBy(() -> CqlQuery.parse("itemId==a or itemId==b"))
        .isInstanceOfSatisfying(ModuleError.class, e -> assertThat(e.status()).isEqualTo(400))
        .hasMessageContaining("or itemId");
  }
}
