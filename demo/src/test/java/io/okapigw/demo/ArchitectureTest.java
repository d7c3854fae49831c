package io.okapigw.demo;

import static io.okapigw.testsupport.ArchitectureRules.mainClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.okapigw.testsupport.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** Rules that hold themselves (ArchUnit): see test-support's {@link ArchitectureRules}. */
class ArchitectureTest {

  private static final JavaClasses MAIN = mainClasses("io.okapigw.demo");

  @Test
  void packages_haveNoCycles() {
    ArchitectureRules.noPackageCycles().check(MAIN);
  }

  @Test
  void demo_usesTheGatewayOnlyThroughItsEntryTypes() {
    ArchitectureRules.usedOnlyThrough("io.okapigw.core", ArchitectureRules.OKAPI_CORE_API)
        .check(MAIN);
  }
}
