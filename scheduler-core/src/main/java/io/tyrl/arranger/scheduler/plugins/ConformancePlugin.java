package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.framework.Plugin;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PluginHooks;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.List;
import java.util.Set;

/**
 * Never offers pods of system namespaces as preemption or reclaim victims (kube-batch's
 * conformance).
 */
public final class ConformancePlugin implements Plugin {

  public static final String NAME = "conformance";

  private static final Set<String> PROTECTED_NAMESPACES = Set.of("kube-system", "kube-public");

  public static PluginDescriptor descriptor() {
    return new PluginDescriptor(NAME, ArgumentSchema.NONE, arguments -> new ConformancePlugin());
  }

  @Override
  public void onSessionOpen(Session session, PluginHooks hooks) {
    hooks.preemptableVictims(ConformancePlugin::unprotected);
    hooks.reclaimableVictims(ConformancePlugin::unprotected);
  }

  private static List<TaskState> unprotected(TaskState preemptor, List<TaskState> candidates) {
    return candidates.stream()
        .filter(task -> !PROTECTED_NAMESPACES.contains(task.job().info().namespace()))
        .toList();
  }
}
