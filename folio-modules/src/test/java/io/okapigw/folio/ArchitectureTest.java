package io.okapigw.folio;

import static io.okapigw.testsupport.ArchitectureRules.mainClasses;
import static io.okapigw.testsupport.ArchitectureRules.testClasses;

import io.okapigw.testsupport.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** Rules that hold themselves (ArchUnit): see test-support's {@link ArchitectureRules}. */
class ArchitectureTest {

  @Test
  void packages_haveNoCycles() {
    ArchitectureRules.noPackageCycles().check(mainClasses("io.okapigw.folio"));
  }

  @Test
  void modules_speakHttpOnly_importNoGatewayCode() {
    ArchitectureRules.mayNotUse(
            "io.okapigw.folio..",
            "io.okapigw.core..",
            "io.okapigw.authtoken..",
            "io.okapigw.cache..",
            "io.okapigw.credentials..")
        .check(mainClasses("io.okapigw.folio"));
  }

  @Test
  void tests_useTheGatewayOnlyThroughItsEntryTypes() {
    ArchitectureRules.usedOnlyThrough("io.okapigw.core", ArchitectureRules.OKAPI_CORE_API)
        .check(testClasses("io.okapigw"));
  }
}
