package io.tyrl.arranger.scheduler.kube;

import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobSpec;
import io.tyrl.arranger.model.V1alpha1TYJobSpecWorkerSets;
import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.GangSpec;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.PreemptionPolicy;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskRole;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a TYJob into the core's {@link JobInfo}: one task per pod the spec asks for. */
final class JobReader {

  private JobReader() {}

  /**
   * @param leavingPods namespace/name of pods on their way out: a placed task whose pod is going
   *     away (an evicted victim, say) is releasing its node, not holding it for its job
   */
  static JobInfo job(V1alpha1TYJob tyJob, Set<String> leavingPods) {
    String namespace = tyJob.getMetadata().getNamespace();
    V1alpha1TYJobSpec spec = tyJob.getSpec();
    String name = tyJob.getMetadata().getName();
    Map<String, String> allocations = tyJob.getStatus() == null || tyJob.getStatus().getAllocations() == null
        ? Map.of() : tyJob.getStatus().getAllocations();
    List<TaskInfo> tasks = new ArrayList<>();
    String leaderName = spec.getLeader().getName();
    tasks.add(task(namespace, name + "-" + leaderName, TaskRole.LEADER, leaderName, 0,
        spec.getLeader().getTemplate(), allocations, leavingPods));
    for (V1alpha1TYJobSpecWorkerSets set : spec.getWorkerSets()) {
      int counts = set.getCounts() == null ? 1 : set.getCounts();
      for (int index = 0; index < counts; index++) {
        tasks.add(task(namespace, name + "-" + set.getName() + "-" + index, TaskRole.WORKER, set.getName(), index,
            set.getTemplate(), allocations, leavingPods));
      }
    }
    BasicPolicy basicPolicy = spec.getSchedulerPolicy() == null || spec.getSchedulerPolicy().getBasicPolicy() == null
        ? null : BasicPolicy.parse(spec.getSchedulerPolicy().getBasicPolicy().getValue());
    JobQueuePolicy queuePolicy = spec.getSchedulerPolicy() == null
        || spec.getSchedulerPolicy().getJobQueuePolicy() == null
        ? null : JobQueuePolicy.parse(spec.getSchedulerPolicy().getJobQueuePolicy().getValue());
    GangSpec gang = spec.getGang() == null ? GangSpec.STRICT : new GangSpec(
        spec.getGang().getMode() == null ? GangMode.STRICT : GangMode.parse(spec.getGang().getMode().getValue()),
        spec.getGang().getWaitTime() == null ? null : GoDuration.parse(spec.getGang().getWaitTime(), "spec.gang.waitTime"),
        spec.getGang().getGroup());
    Instant waitingSince = tyJob.getStatus() == null || tyJob.getStatus().getScheduling() == null
        || tyJob.getStatus().getScheduling().getWaitingSince() == null
        ? null : tyJob.getStatus().getScheduling().getWaitingSince().toInstant();
    Instant created = tyJob.getMetadata().getCreationTimestamp() == null
        ? Instant.EPOCH : tyJob.getMetadata().getCreationTimestamp().toInstant();
    Map<String, String> annotations = tyJob.getMetadata().getAnnotations();
    boolean preemptable = JobInfo.preemptableFromAnnotation(
        annotations == null ? null : annotations.get(JobInfo.PREEMPTABLE_ANNOTATION));
    boolean awaitingVictims = tyJob.getStatus() != null && tyJob.getStatus().getScheduling() != null
        && ReasonCode.WAITING_FOR_VICTIMS.statusValue().equals(tyJob.getStatus().getScheduling().getReason());
    return new JobInfo(tyJob.getMetadata().getNamespace(), name, tyJob.getMetadata().getUid(), spec.getQueue(),
        spec.getPriority() == null ? 5 : spec.getPriority(), created,
        spec.getMinWorkersNum() == null ? 1 : spec.getMinWorkersNum(), basicPolicy, queuePolicy, gang, waitingSince,
        tasks, preemptable, awaitingVictims, spec.getPreemptionPolicy() == null
            ? PreemptionPolicy.PREEMPT_LOWER_PRIORITY : PreemptionPolicy.parse(spec.getPreemptionPolicy().getValue()));
  }

  static TaskInfo task(String namespace, String podName, TaskRole role, String roleName, int index,
      V1PodTemplateSpec template, Map<String, String> allocations, Set<String> leavingPods) {
    V1PodSpec podSpec = template == null ? null : template.getSpec();
    String node = allocations.get(podName);
    TaskStatus status = node == null ? TaskStatus.PENDING
        : leavingPods.contains(namespace + "/" + podName) ? TaskStatus.RELEASING : TaskStatus.ALLOCATED;
    return new TaskInfo(podName, role, roleName, index, PodRequests.of(podSpec), PlacementConstraintsReader.constraints(podSpec), status, node);
  }
}
