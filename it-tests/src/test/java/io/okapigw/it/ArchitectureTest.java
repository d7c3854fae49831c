package io.okapigw.it;

import static io.okapigw.testsupport.ArchitectureRules.testClasses;

import io.okapigw.testsupport.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** Rules that hold themselves (ArchUnit): see test-support's {@link ArchitectureRules}. */
class ArchitectureTest {

  @Test
  void blackBoxTests_useTheGatewayOnlyThroughItsEntryTypes() {
    ArchitectureRules.usedOnlyThrough("io.okapigw.core", ArchitectureRules.OKAPI_CORE_API)
        .check(testClasses("io.okapigw"));
  }
}
