package io.tyrl.arranger.crd.contract;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

@AnalyzeClasses(packages = "io.tyrl.arranger.crd", importOptions = ImportOption.DoNotIncludeTests.class)
class ContractArchitectureTest {

  @ArchTest
  static final ArchRule theContractIsPure = noClasses()
      .that().resideInAPackage("io.tyrl.arranger.crd.contract..")
      .should().dependOnClassesThat().resideInAnyPackage(
          "io.kubernetes..", "org.springframework..", "io.tyrl.arranger.model..", "com.google.gson..")
      .because("both services' pure cores use the contract; it must not bring the Kubernetes client or Spring with it");
}
