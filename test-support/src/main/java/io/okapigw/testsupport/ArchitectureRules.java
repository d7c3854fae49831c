package io.okapigw.testsupport;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

/**
 * Rules that hold themselves (ArchUnit): what a package may import, checked by each module's {@code
 * ArchitectureTest} in {@code mvn verify} rather than kept by habit. One definition of each kind of
 * rule, for every module: no package cycles, a module used by others only through its entry types,
 * a package's public surface, a wiring root nothing imports, packages that are leaves over a shared
 * kit, a package that may not use another.
 *
 * <pre>{@code
 * JavaClasses classes = ArchitectureRules.mainClasses("io.okapigw.cache");
 * ArchitectureRules.noPackageCycles().check(classes);
 * }</pre>
 */
public final class ArchitectureRules {

  /**
   * The okapi-core types the other modules (perf, demo, the tests of it-tests and folio-modules)
   * may use: the gateway started in a JVM ({@code Gateway.start}), its options, and what a
   * command-line program running it sets up for its process: the shutdown hook and {@code
   * java.util.logging} sent to Log4j.
   */
  public static final Set<String> OKAPI_CORE_API =
      Set.of(
          "io.okapigw.core.Gateway",
          "io.okapigw.core.Shutdown",
          "io.okapigw.core.RegistrySeed",
          "io.okapigw.core.logging.JulBridge",
          "io.okapigw.core.config.GatewayOptions",
          "io.okapigw.core.config.AuthParallel");

  private ArchitectureRules() {}

  /**
   * @param packages root packages, e.g. {@code io.okapigw.cache}
   * @return the main classes of those packages (not tests, not classes from jars)
   */
  public static JavaClasses mainClasses(String... packages) {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages(packages);
  }

  /**
   * @param packages root packages, e.g. {@code io.okapigw}
   * @return the test classes of those packages in this module (tests of other modules are not on
   *     its class path)
   */
  public static JavaClasses testClasses(String... packages) {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
        .importPackages(packages);
  }

  /**
   * @return no cycle between packages: each package below {@code io.okapigw} is a slice of its own,
   *     the classes of a package's root included
   */
  public static ArchRule noPackageCycles() {
    return slices()
        .matching("io.okapigw.(**)")
        .namingSlices("package io.okapigw.$1")
        .should()
        .beFreeOfCycles()
        .because("a package cycle is a defect in every module (docs/architecture.md)");
  }

  /**
   * @param modulePackage the root package of a module, e.g. {@code io.okapigw.core}
   * @param types the fully qualified names of its types others may use
   * @return classes outside {@code modulePackage} use none of its other types
   */
  public static ArchRule usedOnlyThrough(String modulePackage, Set<String> types) {
    String tree = modulePackage + "..";
    DescribedPredicate<JavaClass> internal =
        resideInAPackage(tree)
            .and(not(nameIn(types)))
            .as("types of %s other than %s", modulePackage, new TreeSet<>(types));
    return noClasses()
        .that()
        .resideOutsideOfPackage(tree)
        .should()
        .dependOnClassesThat(internal)
        .because(modulePackage + " is used only through its entry types");
  }

  /**
   * @param packageTree e.g. {@code io.okapigw.cache..}
   * @param types the fully qualified names of its public types
   * @return every other top-level type of {@code packageTree} is package-private
   */
  public static ArchRule publicTypesOnly(String packageTree, Set<String> types) {
    return classes()
        .that()
        .resideInAPackage(packageTree)
        .and()
        .areTopLevelClasses()
        .and(not(nameIn(types)))
        .should()
        .notHaveModifier(JavaModifier.PUBLIC)
        .because("its public API is " + new TreeSet<>(types) + "; the rest is implementation");
  }

  /**
   * @param rootPackage a package that wires the others together, e.g. {@code io.okapigw.perf}
   * @return no class outside that very package (subpackages included) uses one of its classes
   */
  public static ArchRule importedByNone(String rootPackage) {
    return noClasses()
        .that()
        .resideOutsideOfPackage(rootPackage)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(rootPackage)
        .because(rootPackage + " is the wiring root: it imports the others, none imports it");
  }

  /**
   * @param parent e.g. {@code io.okapigw.perf}
   * @param shared the subpackages (with their own) every leaf may use, e.g. {@code kit}
   * @return each other subpackage tree of {@code parent} uses no sibling but the shared ones, and
   *     the shared ones use no other subpackage of {@code parent}
   */
  public static ArchRule leaves(String parent, String... shared) {
    String[] sharedTrees =
        Arrays.stream(shared).map(s -> parent + "." + s + "..").toArray(String[]::new);
    ArchRule leaves =
        slices()
            .matching(parent + ".(*)..")
            .namingSlices(parent + ".$1")
            .should()
            .notDependOnEachOther()
            .ignoreDependency(alwaysTrue(), resideInAnyPackage(sharedTrees))
            .because("each is a leaf: it uses only " + String.join(", ", sharedTrees));
    ArchRule sharedBelow =
        mayNotUse(
            sharedTrees,
            resideInAPackage(parent + "..").and(not(resideInAnyPackage(sharedTrees))),
            "the shared packages are below the leaves");
    return CompositeArchRule.of(leaves).and(sharedBelow);
  }

  /**
   * @param from a package tree (ArchUnit syntax, e.g. {@code io.okapigw.core.proxy..})
   * @param to what it may not use (e.g. {@code io.okapigw.core.admin..})
   * @return the classes of {@code from} use no class of {@code to}
   */
  public static ArchRule mayNotUse(String from, String... to) {
    return mayNotUse(
        new String[] {from},
        resideInAnyPackage(to),
        from + " may not use " + String.join(", ", to));
  }

  private static ArchRule mayNotUse(
      String[] from, DescribedPredicate<JavaClass> to, String because) {
    return noClasses()
        .that()
        .resideInAnyPackage(from)
        .should()
        .dependOnClassesThat(to)
        .because(because);
  }

  private static DescribedPredicate<JavaClass> nameIn(Set<String> names) {
    return DescribedPredicate.describe(
        "one of " + new TreeSet<>(names), c -> names.contains(c.getName()));
  }
}
