package io.okapigw.testsupport;

import static io.okapigw.testsupport.ArchitectureRules.mainClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/** Rules that hold themselves (ArchUnit): see {@link ArchitectureRules}. */
class ArchitectureTest {

  private static final JavaClasses MAIN = mainClasses("io.okapigw.testsupport");

  @Test
  void packages_haveNoCycles() {
    ArchitectureRules.noPackageCycles().check(MAIN);
  }

  @Test
  void fixtures_useNoProgramOfOurs() {
    ArchitectureRules.mayNotUse(
            "io.okapigw.testsupport..",
            "io.okapigw.core..",
            "io.okapigw.authtoken..",
            "io.okapigw.cache..",
            "io.okapigw.folio..",
            "io.okapigw.demo..",
            "io.okapigw.perf..")
        .check(MAIN);
  }
}
