package io.okapigw.folio.data;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The library the simulated modules serve, generated deterministically: the same {@link Options}
 * always give the same records and ids.
 *
 * <ul>
 *   <li>Patrons: barcodes {@code P000000}, {@code P000001}, ... (6 digits, zero-padded index).
 *       Every {@value #BLOCK_EVERY}th patron is blocked from borrowing: {@code P000000}, {@code
 *       P000200}, {@code P000400}, ... by a manual block (mod-feesfines), {@code P000100}, {@code
 *       P000300}, ... by an automated block (mod-patron-blocks). With 1000 patrons that is 10
 *       blocked, 990 active.
 *   <li>Items: barcodes {@code I000000}, {@code I000001}, ..., all Available at start, two per
 *       holdings record, one holdings record per instance.
 *   <li>Service points: Circ Desk 1 (the default for check-out and check-in), Circ Desk 2, Online.
 *       Four locations, five material types, four loan types, four patron groups, three loan
 *       policies chosen by material type, one each of request, notice, overdue fine and lost item
 *       fee policy.
 * </ul>
 *
 * Barcodes do not depend on the seed; ids, names, groups, types and locations do.
 */
public final class CirculationData {

  /** Every how many patrons one is blocked. */
  public static final int BLOCK_EVERY = 100;

  /**
   * What to generate.
   *
   * @param seed the random seed (default {@value #DEFAULT_SEED})
   * @param patrons number of patrons, 1..1,000,000 (default {@value #DEFAULT_PATRONS})
   * @param items number of items, 1..1,000,000 (default {@value #DEFAULT_ITEMS})
   */
  public record Options(long seed, int patrons, int items) {

    public static final long DEFAULT_SEED = 42;
    public static final int DEFAULT_PATRONS = 1000;
    public static final int DEFAULT_ITEMS = 1000;
    public static final int MAX = 1_000_000;

    /**
     * @throws IllegalArgumentException naming the bad setting
     */
    public Options {
      check("patrons", patrons);
      check("items", items);
    }

    /**
     * @return the defaults: seed 42, 1000 patrons, 1000 items
     */
    public static Options defaults() {
      return new Options(DEFAULT_SEED, DEFAULT_PATRONS, DEFAULT_ITEMS);
    }

    /**
     * @return these options with another seed
     */
    public Options withSeed(long newSeed) {
      return new Options(newSeed, patrons, items);
    }

    /**
     * @return these options with another number of patrons
     */
    public Options withPatrons(int n) {
      return new Options(seed, n, items);
    }

    /**
     * @return these options with another number of items
     */
    public Options withItems(int n) {
      return new Options(seed, patrons, n);
    }

    /**
     * @return {@code {"seed", "patrons", "items"}}
     */
    public JsonObject toJson() {
      return new JsonObject().put("seed", seed).put("patrons", patrons).put("items", items);
    }

    private static void check(String name, int value) {
      if (value < 1 || value > MAX) {
        throw new IllegalArgumentException(name + " must be 1.." + MAX + ", was " + value);
      }
    }
  }

  private final Options options;
  private final DataGenerator generated;
  private final Map<String, Patron> patronsByBarcode;
  private final Map<String, Item> itemsByBarcode;

  private CirculationData(Options options, DataGenerator generated) {
    this.options = options;
    this.generated = generated;
    this.patronsByBarcode =
        generated.patrons.stream()
            .collect(Collectors.toUnmodifiableMap(Patron::barcode, Function.identity()));
    this.itemsByBarcode =
        generated.items.stream()
            .collect(Collectors.toUnmodifiableMap(Item::barcode, Function.identity()));
  }

  /**
   * @return the library these options describe
   */
  public static CirculationData generate(Options options) {
    return new CirculationData(options, new DataGenerator(options));
  }

  /**
   * @return the barcode of the patron with this index: {@code P000042}
   */
  public static String patronBarcode(int index) {
    return String.format("P%06d", index);
  }

  /**
   * @return the barcode of the item with this index: {@code I000042}
   */
  public static String itemBarcode(int index) {
    return String.format("I%06d", index);
  }

  /**
   * @return what was generated from
   */
  public Options options() {
    return options;
  }

  /**
   * @return every patron, blocked or not, in barcode order
   */
  public List<Patron> patrons() {
    return List.copyOf(generated.patrons);
  }

  /**
   * @return barcodes of the patrons who may borrow
   */
  public List<String> activePatronBarcodes() {
    return barcodes(p -> p.block() == PatronBlock.NONE);
  }

  /**
   * @return barcodes of the patrons blocked from borrowing, manually or automatically
   */
  public List<String> blockedPatronBarcodes() {
    return barcodes(p -> p.block() != PatronBlock.NONE);
  }

  /**
   * @return barcodes of the patrons with this kind of block
   */
  public List<String> patronBarcodes(PatronBlock block) {
    return barcodes(p -> p.block() == block);
  }

  /**
   * @return every item in barcode order
   */
  public List<Item> items() {
    return List.copyOf(generated.items);
  }

  /**
   * @return every item barcode
   */
  public List<String> itemBarcodes() {
    return generated.items.stream().map(Item::barcode).toList();
  }

  /**
   * @return the patron with this barcode
   */
  public Optional<Patron> patron(String barcode) {
    return Optional.ofNullable(patronsByBarcode.get(barcode));
  }

  /**
   * @return the item with this barcode
   */
  public Optional<Item> item(String barcode) {
    return Optional.ofNullable(itemsByBarcode.get(barcode));
  }

  /**
   * @return the default service point for check-out and check-in (Circ Desk 1)
   */
  public String servicePointId() {
    return generated.servicePoints.get(0).id();
  }

  /**
   * @return every service point
   */
  public List<ServicePoint> servicePoints() {
    return List.copyOf(generated.servicePoints);
  }

  /**
   * @return every holdings record
   */
  public List<Holdings> holdings() {
    return List.copyOf(generated.holdings);
  }

  /**
   * @return every instance
   */
  public List<Instance> instances() {
    return List.copyOf(generated.instances);
  }

  /**
   * @return every location
   */
  public List<Location> locations() {
    return List.copyOf(generated.locations);
  }

  /**
   * @return the material types
   */
  public List<Reference> materialTypes() {
    return List.copyOf(generated.materialTypes);
  }

  /**
   * @return the loan types
   */
  public List<Reference> loanTypes() {
    return List.copyOf(generated.loanTypes);
  }

  /**
   * @return the patron groups
   */
  public List<Reference> patronGroups() {
    return List.copyOf(generated.patronGroups);
  }

  /**
   * @return the policies
   */
  public Policies policies() {
    return generated.policies;
  }

  /**
   * @return the circulation rules
   */
  public CirculationRules rules() {
    return generated.rules;
  }

  private List<String> barcodes(Predicate<Patron> which) {
    return generated.patrons.stream().filter(which).map(Patron::barcode).toList();
  }
}
