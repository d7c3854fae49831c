package io.okapigw.credentials;

import static io.okapigw.testsupport.ArchitectureRules.mainClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.okapigw.testsupport.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** Rules that hold themselves (ArchUnit): see test-support's {@link ArchitectureRules}. */
class ArchitectureTest {

  private static final JavaClasses MAIN = mainClasses("io.okapigw.credentials");

  @Test
  void packages_haveNoCycles() {
    ArchitectureRules.noPackageCycles().check(MAIN);
  }

  @Test
  void credentials_usesNoOtherModuleOfOurs() {
    ArchitectureRules.mayNotUse(
            "io.okapigw.credentials..",
            "io.okapigw.config..",
            "io.okapigw.cache..",
            "io.okapigw.core..",
            "io.okapigw.authtoken..")
        .check(MAIN);
  }
}
