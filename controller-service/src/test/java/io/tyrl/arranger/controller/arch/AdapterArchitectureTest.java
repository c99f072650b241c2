package io.tyrl.arranger.controller.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The Kubernetes adapter is plain Java: Spring only wires it, so it can be built and tested without
 * a context.
 */
@AnalyzeClasses(
    packages = "io.tyrl.arranger.controller",
    importOptions = ImportOption.DoNotIncludeTests.class)
class AdapterArchitectureTest {

  @ArchTest
  static final ArchRule adapterKnowsNeitherSpringNorItsWiring =
      noClasses()
          .that()
          .resideInAPackage("io.tyrl.arranger.controller.kube..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("org.springframework..", "io.tyrl.arranger.controller.app..")
          .because("the app package wires the adapter, never the other way round");
}
