package io.tyrl.arranger.controller.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The lifecycle is the controller's pure core: it must run in unit tests, benchmarks and a
 * simulator without an API server, so it may know neither the Kubernetes client nor Spring. Inside
 * it, each role package imports only those below it, so each can be read without the ones above.
 */
@AnalyzeClasses(
    packages = "io.tyrl.arranger.controller",
    importOptions = ImportOption.DoNotIncludeTests.class)
class LifecycleArchitectureTest {

  private static final String LIFECYCLE = "io.tyrl.arranger.controller.lifecycle";

  @ArchTest
  static final ArchRule lifecycleIsFreeOfKubernetesAndSpring =
      noClasses()
          .that()
          .resideInAPackage(LIFECYCLE + "..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("io.kubernetes..", "org.springframework..")
          .because(
              "the lifecycle planner is a pure function of immutable views; adapters map to and from Kubernetes");

  @ArchTest
  static final ArchRule lifecycleDoesNotReachIntoTheRestOfTheController =
      noClasses()
          .that()
          .resideInAPackage(LIFECYCLE + "..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.tyrl.arranger.controller.kube..",
              "io.tyrl.arranger.controller.app..",
              "io.tyrl.arranger.model..")
          .because("the adapters depend on the lifecycle, never the other way round");

  @ArchTest
  static final ArchRule rolePackagesAreFreeOfCycles =
      slices().matching(LIFECYCLE + ".(*)..").should().beFreeOfCycles();

  @ArchTest
  static final ArchRule rolePackagesImportOnlyTheOnesBelow =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("stage")
          .definedBy(LIFECYCLE + ".stage..")
          .layer("validation")
          .definedBy(LIFECYCLE + ".validation..")
          .layer("plan")
          .definedBy(LIFECYCLE + ".plan..")
          .layer("observe")
          .definedBy(LIFECYCLE + ".observe..")
          .layer("status")
          .definedBy(LIFECYCLE + ".status..")
          .whereLayer("stage")
          .mayOnlyAccessLayers("plan", "observe", "status")
          .whereLayer("validation")
          .mayOnlyAccessLayers("observe")
          .whereLayer("plan")
          .mayOnlyAccessLayers("observe", "status")
          .whereLayer("observe")
          .mayOnlyAccessLayers("status")
          .whereLayer("status")
          .mayNotAccessAnyLayer()
          .because(
              "the stored status is read by the observation and written by the plan, which the stage rules fill");

  @ArchTest
  static final ArchRule rolePackagesDoNotCallBackIntoTheEntryPoint =
      noClasses()
          .that()
          .resideInAnyPackage(
              LIFECYCLE + ".observe..",
              LIFECYCLE + ".status..",
              LIFECYCLE + ".plan..",
              LIFECYCLE + ".stage..",
              LIFECYCLE + ".validation..")
          .should()
          .dependOnClassesThat(resideInAPackage(LIFECYCLE))
          .because("LifecyclePlanner composes the role packages, which never call back into it");
}
