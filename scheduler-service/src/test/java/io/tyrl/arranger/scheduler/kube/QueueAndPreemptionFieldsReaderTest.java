package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.JSON;
import io.tyrl.arranger.model.V1alpha1Queue;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.scheduler.api.PreemptionPolicy;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Queue {@code state} and {@code priority}, and TYJob {@code preemptionPolicy}, as the core reads
 * them.
 */
class QueueAndPreemptionFieldsReaderTest {

  private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");

  private static final JSON JSON = new JSON();

  private static QueueInfo queue(String spec) {
    return QueueReader.queue(
        JSON.deserialize(
            "{\"metadata\": {\"name\": \"games\"}, \"spec\": " + spec + "}", V1alpha1Queue.class));
  }

  private static V1alpha1TYJob job(String extraSpec) {
    return JSON.deserialize(
        """
        {"metadata": {"namespace": "rl", "name": "pong", "creationTimestamp": "2026-11-22T09:00:00Z"},
         "spec": {%s "leader": {"name": "learner", "template": {"spec": {"containers": [{"name": "l"}]}}},
                  "workerSets": [{"name": "actor", "counts": 1, "template": {"spec": {"containers": [{"name": "a"}]}}}]}}"""
            .formatted(extraSpec),
        V1alpha1TYJob.class);
  }

  @Test
  void aQueueWithoutStateOrPriorityIsOpenWithPriorityZero() {
    QueueInfo queue = queue("{\"weight\": 2}");

    assertThat(queue.open()).isTrue();
    assertThat(queue.priority()).isZero();
  }

  @Test
  void aClosedQueueOfPriorityThreeIsReadAsSuch() {
    QueueInfo queue = queue("{\"state\": \"Closed\", \"priority\": 3}");

    assertThat(queue.open()).isFalse();
    assertThat(queue.priority()).isEqualTo(3);
    assertThat(queue("{\"state\": \"Open\"}").open()).isTrue();
  }

  @Test
  void aTemplateIsReadOnceWhileItsJobIsUnchangedAndAvoidedNodesStillApplyEachCycle() {
    V1alpha1TYJob job = job("");
    IdentityMemo<
            io.kubernetes.client.openapi.models.V1PodTemplateSpec, JobReader.TemplateRequirements>
        templates = new IdentityMemo<>();
    var first = JobReader.job(job, LivePods.of(List.of(), List.of()), NOW, templates);
    templates.sweep();
    job.setStatus(
        JSON.deserialize(
            """
        {"avoidNodes": [{"node": "n1", "reason": "OutOfcpu", "until": "2026-11-25T12:05:00Z"}]}""",
            io.tyrl.arranger.model.V1alpha1TYJobStatus.class));
    var second = JobReader.job(job, LivePods.of(List.of(), List.of()), NOW, templates);

    assertThat(templates.size()).isEqualTo(2);
    assertThat(second.tasks())
        .extracting(task -> task.constraints().withAvoidedNodes(java.util.Map.of()))
        .containsExactlyElementsOf(first.tasks().stream().map(task -> task.constraints()).toList());
    assertThat(first.tasks())
        .allSatisfy(task -> assertThat(task.constraints().avoidedNodes()).isEmpty());
    assertThat(second.tasks())
        .allSatisfy(task -> assertThat(task.constraints().avoidedNodes()).containsOnlyKeys("n1"));
    assertThat(
            JobReader.job(job, LivePods.of(List.of(), List.of()), NOW.plusSeconds(600), templates)
                .tasks())
        .allSatisfy(task -> assertThat(task.constraints().avoidedNodes()).isEmpty());
  }

  @Test
  void avoidedNodesStillRunningReachEveryTaskAndOnesThatEndedDoNot() {
    V1alpha1TYJob job = job("");
    job.setStatus(
        JSON.deserialize(
            """
        {"avoidNodes": [{"node": "n1", "reason": "OutOfcpu", "until": "2026-11-25T12:05:00Z"},
                        {"node": "n2", "reason": "OutOfmemory", "until": "2026-11-25T11:59:00Z"}]}""",
            io.tyrl.arranger.model.V1alpha1TYJobStatus.class));

    var read = JobReader.job(job, LivePods.of(List.of(), List.of()), NOW);

    assertThat(read.tasks())
        .allSatisfy(
            task ->
                assertThat(task.constraints().avoidedNodes())
                    .containsExactly(
                        java.util.Map.entry(
                            "n1",
                            "node(s) where the kubelet refused this job's pod (n1: OutOfcpu), avoided until 2026-11-25T12:05:00Z")));
  }

  @Test
  void preemptionPolicyNeverIsReadAndItsAbsenceMeansPreemptLowerPriority() {
    assertThat(
            JobReader.job(
                    job("\"preemptionPolicy\": \"Never\","), LivePods.of(List.of(), List.of()), NOW)
                .preemptionPolicy())
        .isEqualTo(PreemptionPolicy.NEVER);
    assertThat(
            JobReader.job(
                    job("\"preemptionPolicy\": \"Never\","), LivePods.of(List.of(), List.of()), NOW)
                .mayPreempt())
        .isFalse();
    assertThat(JobReader.job(job(""), LivePods.of(List.of(), List.of()), NOW).preemptionPolicy())
        .isEqualTo(PreemptionPolicy.PREEMPT_LOWER_PRIORITY);
  }
}
