package io.okapigw.perf;

import static io.okapigw.testsupport.ArchitectureRules.mainClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.okapigw.testsupport.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * Rules that hold themselves (ArchUnit; see test-support's {@link ArchitectureRules}): the
 * benchmark families (fullfake, parallelauth, hop, cluster, load) are leaves over the kit, {@link
 * Main} wires them and nothing imports it.
 */
class ArchitectureTest {

  private static final JavaClasses MAIN = mainClasses("io.okapigw.perf");

  @Test
  void packages_haveNoCycles() {
    ArchitectureRules.noPackageCycles().check(MAIN);
  }

  @Test
  void benchmarks_areLeaves_eachUsesOnlyTheKit() {
    ArchitectureRules.leaves("io.okapigw.perf", "kit").check(MAIN);
  }

  @Test
  void main_isTheRoot_noBenchmarkImportsIt() {
    ArchitectureRules.importedByNone("io.okapigw.perf").check(MAIN);
  }

  @Test
  void perf_usesTheGatewayOnlyThroughItsEntryTypes() {
    ArchitectureRules.usedOnlyThrough("io.okapigw.core", ArchitectureRules.OKAPI_CORE_API)
        .check(MAIN);
  }
}
