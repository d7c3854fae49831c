package io.okapigw.core.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.okapigw.core.upstream.ModuleClient;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.net.NetClient;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What okapi-core's packages may import, as rules that hold themselves (docs/architecture.md draws
 * them):
 *
 * <ul>
 *   <li>no package cycles;
 *   <li>four layers: the ground ({@code http}, {@code registry}); the request path ({@code server},
 *       {@code proxy}, {@code bulkhead}, {@code callback}, {@code auth}, {@code routing}, {@code
 *       upstream}, {@code tracing}, {@code eureka}), which never imports the management side; the
 *       management side ({@code admin}, {@code install}, {@code tenantinit}, {@code timer}, {@code
 *       storage}, {@code cluster}, {@code health}, {@code eureka.events}, {@code deployment},
 *       {@code pull}); the wiring (the root package, {@code config}, {@code logging}), which
 *       nothing imports;
 *   <li>only the {@link ModuleClient} opens connections to modules; the only other HTTP clients are
 *       those of what is not a module: the Docker Engine API ({@code deployment.DockerEngine}) and
 *       the Okapi descriptors are pulled from ({@code pull.RemoteRegistry}).
 * </ul>
 */
class ArchitectureTest {

  private static final String CORE = "io.okapigw.core";

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(CORE);
  }

  @Test
  void packages_haveNoCycles() {
    slices().matching(CORE + ".(*)..").should().beFreeOfCycles().check(classes);
  }

  @Test
  void layers_requestPathNeverImportsTheManagementSide_nothingImportsTheWiring() {
    ArchRule layers =
        layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("Wiring")
            .definedBy(CORE, CORE + ".config..", CORE + ".logging..")
            .layer("Management")
            .definedBy(
                CORE + ".admin..",
                CORE + ".install..",
                CORE + ".tenantinit..",
                CORE + ".timer..",
                CORE + ".storage..",
                CORE + ".cluster..",
                CORE + ".health..",
                CORE + ".eureka.events..",
                CORE + ".deployment..",
                CORE + ".pull..")
            .layer("RequestPath")
            .definedBy(
                CORE + ".server..",
                CORE + ".proxy..",
                CORE + ".bulkhead..",
                CORE + ".callback..",
                CORE + ".auth..",
                CORE + ".routing..",
                CORE + ".upstream..",
                CORE + ".tracing..",
                CORE + ".eureka")
            .layer("Ground")
            .definedBy(CORE + ".http..", CORE + ".registry..")
            .whereLayer("Wiring")
            .mayNotBeAccessedByAnyLayer()
            .whereLayer("Management")
            .mayOnlyBeAccessedByLayers("Wiring")
            .whereLayer("RequestPath")
            .mayOnlyBeAccessedByLayers("Wiring", "Management");
    layers.check(classes);
  }

  @Test
  void connectionsToModules_openedOnlyByTheModuleClient() {
    Set<String> opening = Set.of("createHttpClient", "httpClientBuilder", "createNetClient");
    noClasses()
        .that()
        .doNotBelongToAnyOf(ModuleClient.class)
        .and()
        .doNotHaveFullyQualifiedName(CORE + ".deployment.DockerEngine")
        .and()
        .doNotHaveFullyQualifiedName(CORE + ".pull.RemoteRegistry")
        .should()
        .callMethodWhere(
            describe(
                "a Vert.x client is made, or a request or connection opened with one",
                (JavaCall<?> call) ->
                    call.getTargetOwner().isAssignableTo(Vertx.class)
                            && opening.contains(call.getName())
                        || call.getTargetOwner().isAssignableTo(HttpClient.class)
                            && Set.of("request", "connect").contains(call.getName())
                        || call.getTargetOwner().isAssignableTo(HttpClientAgent.class)
                        || call.getTargetOwner().isAssignableTo(NetClient.class)))
        .check(classes);
  }
}
