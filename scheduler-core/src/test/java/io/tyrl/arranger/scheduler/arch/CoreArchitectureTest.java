package io.tyrl.arranger.scheduler.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The scheduling core stays free of Kubernetes and Spring, so it runs in unit tests, benchmarks and
 * simulators.
 */
class CoreArchitectureTest {

  private static final String[] CORE = {
    "io.tyrl.arranger.scheduler.api..",
    "io.tyrl.arranger.scheduler.framework..",
    "io.tyrl.arranger.scheduler.actions..",
    "io.tyrl.arranger.scheduler.plugins..",
    "io.tyrl.arranger.scheduler.topology..",
    "io.tyrl.arranger.scheduler.conf..",
    "io.tyrl.arranger.scheduler.replay.."
  };

  private final JavaClasses classes =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.tyrl.arranger.scheduler");

  @Test
  void coreImportsNeitherKubernetesNorSpring() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.kubernetes..", "org.springframework..")
        .check(classes);
  }

  @Test
  void coreDoesNotReachIntoTheServiceLayer() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.tyrl.arranger.scheduler.app..", "io.tyrl.arranger.scheduler.kube..")
        .check(classes);
  }

  @Test
  void corePackagesHaveNoCycles() {
    slices().matching("io.tyrl.arranger.scheduler.(*)..").should().beFreeOfCycles().check(classes);
  }
}
