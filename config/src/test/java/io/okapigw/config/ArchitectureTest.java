package io.okapigw.config;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Rules that hold themselves (ArchUnit). Written out here rather than taken from test-support's
 * {@code ArchitectureRules}: test-support depends on this module.
 */
class ArchitectureTest {

  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
          .importPackages("io.okapigw.config");

  @Test
  void packages_haveNoCycles() {
    slices().matching("io.okapigw.(**)").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void config_usesNoOtherModuleOfOurs() {
    noClasses()
        .that()
        .resideInAPackage("io.okapigw.config..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("io.okapigw..").and(not(resideInAPackage("io.okapigw.config.."))))
        .because("config is the bottom of our modules")
        .check(MAIN);
  }
}
