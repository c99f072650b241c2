package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.Plugin;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PluginHooks;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.List;

/**
 * JobQueuePolicy {@code DRF}: the job with the lowest dominant share goes first, where a job's
 * dominant share is {@code max over resources r of allocated(r) / cluster allocatable(r)} (pods not
 * counted). Ties fall to the older job; the session breaks the remaining ones by namespace/name.
 * Shares are read live from the session, so a job that just got pods moves back.
 *
 * <p>As a preemption policy it lets a preemptor take a victim's pod only while the preemptor's
 * share after the move stays below the victim job's share after it.
 */
public final class DrfPlugin implements Plugin {

  public static final String NAME = "drf";

  private Session session;

  public static PluginDescriptor descriptor() {
    return new PluginDescriptor(NAME, ArgumentSchema.NONE, arguments -> new DrfPlugin());
  }

  @Override
  public void onSessionOpen(Session openedSession, PluginHooks hooks) {
    this.session = openedSession;
    hooks.jobOrder(this::compare);
    hooks.preemptableVictims(this::preemptable);
  }

  int compare(JobState first, JobState second) {
    if (first.jobQueuePolicy() != JobQueuePolicy.DRF
        || second.jobQueuePolicy() != JobQueuePolicy.DRF) {
      return 0;
    }
    int byShare = Double.compare(share(first, null, 0), share(second, null, 0));
    if (byShare != 0) {
      return byShare;
    }
    return first.info().creationTime().compareTo(second.info().creationTime());
  }

  /** The job's dominant share, with {@code sign × task}'s request added (sign 0 = as it is). */
  double share(JobState job, TaskState task, int sign) {
    double dominant = 0;
    ResourceDimensions dimensions = session.dimensions();
    for (int d = 0; d < dimensions.size(); d++) {
      long total = session.clusterAllocatable(d);
      if (d == ResourceDimensions.PODS || total <= 0) {
        continue;
      }
      long allocated = job.allocated(d) + (task == null ? 0 : sign * task.request(d));
      dominant = Math.max(dominant, (double) allocated / total);
    }
    return dominant;
  }

  private List<TaskState> preemptable(TaskState preemptor, List<TaskState> candidates) {
    double preemptorShare = share(preemptor.job(), preemptor, 1);
    List<TaskState> allowed = new ArrayList<>();
    for (TaskState victim : candidates) {
      if (preemptorShare < share(victim.job(), victim, -1)) {
        allowed.add(victim);
      }
    }
    return allowed;
  }
}
