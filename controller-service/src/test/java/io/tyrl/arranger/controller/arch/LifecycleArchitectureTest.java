package io.tyrl.arranger.controller.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The lifecycle is the controller's pure core: it must run in unit tests, benchmarks and a
 * simulator without an API server, so it may know neither the Kubernetes client nor Spring.
 */
@AnalyzeClasses(packages = "io.tyrl.arranger.controller", importOptions = ImportOption.DoNotIncludeTests.class)
class LifecycleArchitectureTest {

  @ArchTest
  static final ArchRule lifecycleIsFreeOfKubernetesAndSpring = noClasses()
      .that().resideInAPackage("io.tyrl.arranger.controller.lifecycle..")
      .should().dependOnClassesThat().resideInAnyPackage("io.kubernetes..", "org.springframework..")
      .because("the lifecycle planner is a pure function of immutable views; adapters map to and from Kubernetes");

  @ArchTest
  static final ArchRule lifecycleDoesNotReachIntoTheRestOfTheController = noClasses()
      .that().resideInAPackage("io.tyrl.arranger.controller.lifecycle..")
      .should().dependOnClassesThat().resideInAnyPackage(
          "io.tyrl.arranger.controller.kube..", "io.tyrl.arranger.controller.app..", "io.tyrl.arranger.model..")
      .because("the adapters depend on the lifecycle, never the other way round");
}
