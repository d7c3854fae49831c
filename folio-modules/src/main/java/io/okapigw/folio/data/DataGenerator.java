package io.okapigw.folio.data;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/** Builds every generated record from one seeded random sequence, always in the same order. */
final class DataGenerator {

  private static final String[] MATERIAL_TYPES = {
    "book", "dvd", "sound recording", "video recording", "text"
  };
  private static final String[] LOAN_TYPES = {
    "Can circulate", "Course reserves", "Reading room", "Selected"
  };
  private static final String[] GROUPS = {"faculty", "graduate", "staff", "undergrad"};
  private static final String[] FIRST = {
    "Ada", "Bram", "Chen", "Dina", "Emil", "Farah", "Gus", "Hana", "Ivo", "Jun", "Kira", "Lars",
    "Mona", "Nils", "Olga", "Pia", "Rui", "Sami"
  };
  private static final String[] LAST = {
    "Andersen",
    "Berg",
    "Costa",
    "Dahl",
    "Eriksen",
    "Fischer",
    "Garcia",
    "Holm",
    "Ito",
    "Jensen",
    "Kowalski",
    "Larsen",
    "Moreau",
    "Nakamura",
    "Olsen"
  };
  private static final String[] ADJECTIVES = {
    "Silent",
    "Hidden",
    "Northern",
    "Last",
    "Broken",
    "Golden",
    "Distant",
    "Quiet",
    "Burning",
    "Frozen",
    "Lost",
    "Endless"
  };
  private static final String[] NOUNS = {
    "River", "Library", "Garden", "Harbour", "Archive", "Forest", "Winter", "Mirror", "Island",
    "Letter", "Orchard", "Signal"
  };

  private final Random random;
  final List<ServicePoint> servicePoints = new ArrayList<>();
  final List<Location> locations = new ArrayList<>();
  final List<Reference> materialTypes = new ArrayList<>();
  final List<Reference> loanTypes = new ArrayList<>();
  final List<Reference> patronGroups = new ArrayList<>();
  final List<Patron> patrons = new ArrayList<>();
  final List<Instance> instances = new ArrayList<>();
  final List<Holdings> holdings = new ArrayList<>();
  final List<Item> items = new ArrayList<>();
  final Policies policies;
  final CirculationRules rules;

  DataGenerator(CirculationData.Options options) {
    random = new Random(options.seed());
    servicePoints();
    locations();
    references(MATERIAL_TYPES, materialTypes);
    references(LOAN_TYPES, loanTypes);
    references(GROUPS, patronGroups);
    policies = policies();
    rules = rules();
    for (int i = 0; i < options.patrons(); i++) {
      patrons.add(patron(i));
    }
    for (int i = 0; i < options.items(); i++) {
      items.add(item(i));
    }
  }

  private void servicePoints() {
    servicePoints.add(new ServicePoint(uuid(), "Circ Desk 1", "cd1"));
    servicePoints.add(new ServicePoint(uuid(), "Circ Desk 2", "cd2"));
    servicePoints.add(new ServicePoint(uuid(), "Online", "online"));
  }

  private void locations() {
    String institution = uuid();
    String campus = uuid();
    String mainLibrary = uuid();
    String branch = uuid();
    locations.add(
        new Location(
            uuid(),
            "Main Library",
            "KU/CC/DI/M",
            institution,
            campus,
            mainLibrary,
            servicePoints.get(0).id()));
    locations.add(
        new Location(
            uuid(),
            "Annex",
            "KU/CC/DI/A",
            institution,
            campus,
            mainLibrary,
            servicePoints.get(0).id()));
    locations.add(
        new Location(
            uuid(),
            "Second Floor",
            "KU/CC/DI/2",
            institution,
            campus,
            branch,
            servicePoints.get(1).id()));
    locations.add(
        new Location(
            uuid(), "Online", "E", institution, campus, branch, servicePoints.get(2).id()));
  }

  private void references(String[] names, List<Reference> into) {
    for (String name : names) {
      into.add(new Reference(uuid(), name));
    }
  }

  private Policies policies() {
    List<LoanPolicy> loan =
        List.of(
            new LoanPolicy(uuid(), "Example Loan Policy", 3, "Weeks", 1000),
            new LoanPolicy(uuid(), "One Week", 1, "Weeks", 1000),
            new LoanPolicy(uuid(), "Two Days", 2, "Days", 1000));
    return new Policies(
        loan,
        new Policy(uuid(), "Allow All"),
        new NoticePolicy(uuid(), "Send check-out and check-in notices", uuid(), uuid()),
        new Policy(uuid(), "Overdue Fine Policy"),
        new Policy(uuid(), "Lost Item Fee Policy"));
  }

  private CirculationRules rules() {
    Map<String, String> byMaterialType = new HashMap<>();
    int[] loanPolicyOfType = {0, 1, 1, 2, 0};
    for (int i = 0; i < materialTypes.size(); i++) {
      byMaterialType.put(
          materialTypes.get(i).id(), policies.loanPolicies().get(loanPolicyOfType[i]).id());
    }
    return new CirculationRules(policies, byMaterialType);
  }

  private Patron patron(int index) {
    String first = pick(FIRST);
    String last = pick(LAST);
    return new Patron(
        uuid(),
        CirculationData.patronBarcode(index),
        (first + "." + last + index).toLowerCase(Locale.ROOT),
        first,
        last,
        patronGroups.get(random.nextInt(patronGroups.size())).id(),
        block(index));
  }

  private static PatronBlock block(int index) {
    if (index % CirculationData.BLOCK_EVERY != 0) {
      return PatronBlock.NONE;
    }
    return index / CirculationData.BLOCK_EVERY % 2 == 0
        ? PatronBlock.MANUAL
        : PatronBlock.AUTOMATED;
  }

  private Item item(int index) {
    if (index % 2 == 0) {
      addInstanceAndHoldings(index / 2);
    }
    Holdings h = holdings.get(holdings.size() - 1);
    String own = random.nextInt(5) == 0 ? pickLocation() : null;
    int loanType = random.nextInt(10) < 7 ? 0 : 1 + random.nextInt(loanTypes.size() - 1);
    return new Item(
        uuid(),
        CirculationData.itemBarcode(index),
        "it" + pad(index),
        h.id(),
        materialTypes.get(random.nextInt(materialTypes.size())).id(),
        loanTypes.get(loanType).id(),
        own,
        own != null ? own : h.permanentLocationId());
  }

  private void addInstanceAndHoldings(int index) {
    String title = "The " + pick(ADJECTIVES) + " " + pick(NOUNS) + " " + (index + 1);
    Instance instance =
        new Instance(uuid(), "in" + pad(index), title, pick(LAST) + ", " + pick(FIRST));
    instances.add(instance);
    holdings.add(
        new Holdings(
            uuid(),
            "ho" + pad(index),
            instance.id(),
            pickLocation(),
            "PR" + (1000 + random.nextInt(9000)) + "." + (char) ('A' + random.nextInt(26))));
  }

  private String pickLocation() {
    return locations.get(random.nextInt(locations.size() - 1)).id();
  }

  private String pick(String[] values) {
    return values[random.nextInt(values.length)];
  }

  private String uuid() {
    long high = (random.nextLong() & ~0xF000L) | 0x4000L;
    long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(high, low).toString();
  }

  private static String pad(int index) {
    return String.format("%09d", index);
  }
}
