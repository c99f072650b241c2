package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.Plugin;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PluginHooks;
import io.tyrl.arranger.scheduler.framework.Session;

/**
 * JobQueuePolicy {@code Priority}: higher {@code spec.priority} first, then the older job; the
 * session breaks the remaining ties by namespace/name. It has no opinion on jobs ordered by another
 * policy.
 */
public final class PriorityPlugin implements Plugin {

  public static final String NAME = "priority";

  public static PluginDescriptor descriptor() {
    return new PluginDescriptor(NAME, ArgumentSchema.NONE, arguments -> new PriorityPlugin());
  }

  @Override
  public void onSessionOpen(Session session, PluginHooks hooks) {
    hooks.jobOrder(PriorityPlugin::compare);
  }

  static int compare(JobState first, JobState second) {
    if (first.jobQueuePolicy() != JobQueuePolicy.PRIORITY
        || second.jobQueuePolicy() != JobQueuePolicy.PRIORITY) {
      return 0;
    }
    int byPriority = Integer.compare(second.info().priority(), first.info().priority());
    if (byPriority != 0) {
      return byPriority;
    }
    return first.info().creationTime().compareTo(second.info().creationTime());
  }
}
