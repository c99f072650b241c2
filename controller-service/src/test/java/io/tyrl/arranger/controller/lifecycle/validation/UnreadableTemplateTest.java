package io.tyrl.arranger.controller.lifecycle.validation;

import static io.tyrl.arranger.controller.lifecycle.JobFixture.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.controller.lifecycle.observe.ContainerView;
import io.tyrl.arranger.controller.lifecycle.observe.PodTemplateView;
import io.tyrl.arranger.controller.lifecycle.observe.WorkerSetSpecView;
import io.tyrl.arranger.controller.lifecycle.validation.JobValidator;
import io.tyrl.arranger.controller.lifecycle.validation.ValidationProblem;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A template the adapter could not read as a pod template fails validation at its path. */
class UnreadableTemplateTest {

  @Test
  void anUnreadableTemplateIsAProblemNamingTheTemplate() {
    PodTemplateView unreadable = new PodTemplateView(List.of(ContainerView.named("main")), List.of(),
        Optional.of("is not a valid pod template: the field `imagee` is not defined"));

    List<String> problems = new JobValidator()
        .validate(job().workerSet(new WorkerSetSpecView("actor", 1, unreadable)).build()).stream()
        .map(ValidationProblem::toString).toList();

    assertThat(problems).containsExactly(
        "spec.workerSets[0].template: is not a valid pod template: the field `imagee` is not defined");
  }

  @Test
  void aMorePreciseProblemInTheSameTemplateIsReportedInstead() {
    PodTemplateView badQuantity = new PodTemplateView(
        List.of(new ContainerView("main", Map.of("cpu", "lots"), Map.of())), List.of(),
        Optional.of("is not a valid pod template: QuantityFormatException"));

    List<String> problems = new JobValidator().validate(job().leaderTemplate(badQuantity).workerSet("actor", 1).build())
        .stream().map(ValidationProblem::toString).toList();

    assertThat(problems).singleElement().asString()
        .startsWith("spec.leader.template.spec.containers[0].resources.requests[cpu]: \"lots\"");
  }
}
