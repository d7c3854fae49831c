package io.okapigw.authtoken;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * The module's layers, as rules over its main classes (docs/authtoken.md, "Packages and layers"):
 * the wiring root on top, which nothing imports; the features; the store's interface and records;
 * the ground package {@code http} at the bottom. Each rule was seen failing on a deliberate
 * violation.
 */
@AnalyzeClasses(packages = LayersTest.ROOT, importOptions = ImportOption.DoNotIncludeTests.class)
class LayersTest {

  static final String ROOT = "io.okapigw.authtoken";
  private static final String GROUND = ROOT + ".http..";
  private static final String STORE = ROOT + ".store";
  private static final String[] STORE_IMPLEMENTATIONS = {STORE + ".json..", STORE + ".pg.."};

  /** Every package a slice of its own: the root, {@code store} and {@code store.json} apart. */
  private static final SliceAssignment EACH_PACKAGE =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
          return SliceIdentifier.of(javaClass.getPackageName());
        }

        @Override
        public String getDescription() {
          return "each package of " + ROOT;
        }
      };

  @ArchTest
  static final ArchRule noPackageCycles =
      slices().assignedFrom(EACH_PACKAGE).should().beFreeOfCycles();

  @ArchTest
  static final ArchRule groundImportsNoOtherPackageOfTheModule =
      noClasses()
          .that()
          .resideInAPackage(GROUND)
          .should()
          .dependOnClassesThat(resideInAPackage(ROOT + "..").and(resideOutsideOf(GROUND)))
          .because("every feature imports the ground package (errors, headers, JSON bodies)");

  @ArchTest
  static final ArchRule nothingImportsTheWiringRoot =
      noClasses()
          .that()
          .resideOutsideOfPackage(ROOT)
          .should()
          .dependOnClassesThat()
          .resideInAPackage(ROOT)
          .because("the root wires the features together; a feature gets what it needs handed in");

  @ArchTest
  static final ArchRule storeInterfaceKnowsNoImplementation =
      noClasses()
          .that()
          .resideInAPackage(STORE)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(STORE_IMPLEMENTATIONS)
          .because("the wiring root chooses the store (Stores), AuthStore knows neither");

  @ArchTest
  static final ArchRule onlyTheWiringChoosesTheStore =
      noClasses()
          .that(
              resideInAPackage(ROOT + "..")
                  .and(resideOutsideOf(ROOT))
                  .and(resideOutsideOf(STORE_IMPLEMENTATIONS)))
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(STORE_IMPLEMENTATIONS)
          .because("features work with AuthStore, whichever store the settings name");

  @ArchTest
  static final ArchRule storeDependsOnNoFeature =
      noClasses()
          .that()
          .resideInAPackage(STORE + "..")
          .should()
          .dependOnClassesThat(
              resideInAPackage(ROOT + "..")
                  .and(resideOutsideOf(STORE + ".."))
                  .and(resideOutsideOf(GROUND)))
          .because("the store lies under every feature: records in, records out");

  @ArchTest
  static final ArchRule usersToPermissionsOnly =
      noClasses()
          .that()
          .resideInAPackage(ROOT + ".perms..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage(ROOT + ".users..")
          .because(
              "a user's permissions expand through the permission sets (users -> perms), never the"
                  + " other way");

  private static com.tngtech.archunit.base.DescribedPredicate<JavaClass> resideOutsideOf(
      String... packages) {
    return resideInAnyPackage(packages)
        .negate()
        .as("reside outside of %s", String.join(", ", packages));
  }
}
