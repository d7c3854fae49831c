package io.okapigw.folio.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CirculationDataTest {

  private static final CirculationData.Options SMALL =
      CirculationData.Options.defaults().withPatrons(250).withItems(50);

  @Test
  void generate_sameSeed_givesIdenticalRecords() {
    CirculationData a = CirculationData.generate(SMALL);
    CirculationData b = CirculationData.generate(SMALL);

    assertThat(a.patrons()).isEqualTo(b.patrons());
    assertThat(a.items()).isEqualTo(b.items());
    assertThat(a.holdings()).isEqualTo(b.holdings());
    assertThat(a.instances()).isEqualTo(b.instances());
    assertThat(a.policies()).isEqualTo(b.policies());
    assertThat(a.servicePointId()).isEqualTo(b.servicePointId());
  }

  @Test
  void generate_otherSeed_givesOtherIdsButTheSameBarcodes() {
    CirculationData a = CirculationData.generate(SMALL);
    CirculationData b = CirculationData.generate(SMALL.withSeed(7));

    assertThat(a.items().get(0).id()).isNotEqualTo(b.items().get(0).id());
    assertThat(a.servicePointId()).isNotEqualTo(b.servicePointId());
    assertThat(a.itemBarcodes()).isEqualTo(b.itemBarcodes());
    assertThat(a.blockedPatronBarcodes()).isEqualTo(b.blockedPatronBarcodes());
  }

  @Test
  void defaults_haveThousandPatronsAndItemsWithTenBlockedPatrons() {
    CirculationData data = CirculationData.generate(CirculationData.Options.defaults());

    assertThat(data.patrons()).hasSize(1000);
    assertThat(data.itemBarcodes()).hasSize(1000).startsWith("I000000").endsWith("I000999");
    assertThat(data.patronBarcodes(PatronBlock.MANUAL))
        .containsExactly("P000000", "P000200", "P000400", "P000600", "P000800");
    assertThat(data.patronBarcodes(PatronBlock.AUTOMATED))
        .containsExactly("P000100", "P000300", "P000500", "P000700", "P000900");
    assertThat(data.activePatronBarcodes()).hasSize(990).doesNotContain("P000000", "P000100");
  }

  @Test
  void items_referToGeneratedHoldingsInstancesLocationsAndTypes() {
    CirculationData data = CirculationData.generate(SMALL);
    Item item = data.item("I000049").orElseThrow();
    Holdings holdings =
        data.holdings().stream()
            .filter(h -> h.id().equals(item.holdingsRecordId()))
            .findFirst()
            .orElseThrow();

    assertThat(data.instances()).anyMatch(i -> i.id().equals(holdings.instanceId()));
    assertThat(data.locations()).anyMatch(l -> l.id().equals(item.effectiveLocationId()));
    assertThat(data.materialTypes()).anyMatch(t -> t.id().equals(item.materialTypeId()));
    assertThat(data.loanTypes()).anyMatch(t -> t.id().equals(item.permanentLoanTypeId()));
    assertThat(data.holdings()).hasSize(25);
  }

  @Test
  void rules_chooseAGeneratedLoanPolicyForEveryMaterialType() {
    CirculationData data = CirculationData.generate(SMALL);

    data.materialTypes()
        .forEach(
            type ->
                assertThat(data.policies().loanPolicies())
                    .anyMatch(p -> p.id().equals(data.rules().loanPolicyId(type.id()))));
    assertThat(data.rules().loanPolicyId("unknown"))
        .isEqualTo(data.policies().loanPolicies().get(0).id());
  }

  @Test
  void options_outOfRange_failNamingTheSetting() {
    assertThatThrownBy(() -> CirculationData.Options.defaults().withPatrons(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("patrons");
    assertThatThrownBy(() -> CirculationData.Options.defaults().withItems(2_000_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("items");
  }
}
