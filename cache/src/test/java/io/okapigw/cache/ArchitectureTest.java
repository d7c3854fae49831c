package io.okapigw.cache;

import static io.okapigw.testsupport.ArchitectureRules.mainClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.okapigw.testsupport.ArchitectureRules;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Rules that hold themselves (ArchUnit): see test-support's {@link ArchitectureRules}. */
class ArchitectureTest {

  private static final JavaClasses MAIN = mainClasses("io.okapigw.cache");

  @Test
  void packages_haveNoCycles() {
    ArchitectureRules.noPackageCycles().check(MAIN);
  }

  @Test
  void publicApi_isTheFiveTypesOfPackageInfo_theRestPackagePrivate() {
    ArchitectureRules.publicTypesOnly(
            "io.okapigw.cache..",
            Set.of(
                AuthCache.class.getName(),
                AuthCacheOptions.class.getName(),
                AuthCacheKey.class.getName(),
                AuthDecision.class.getName(),
                AuthCacheStats.class.getName()))
        .check(MAIN);
  }

  @Test
  void cache_usesNoVertxNoHttpNoGateway() {
    ArchitectureRules.mayNotUse(
            "io.okapigw.cache..",
            "io.vertx..",
            "io.netty..",
            "java.net.http..",
            "io.okapigw.core..",
            "io.okapigw.credentials..")
        .check(MAIN);
  }
}
