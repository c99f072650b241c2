package io.tyrl.arranger.simulator.engine;

import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.TaskState;

/**
 * The FGD paper's BestFit baseline as a node-scoring plugin, only to prove that the openb replay
 * follows the published protocol (it must give the published BestFit curve): {@code 100 × (1 − [0.5
 * × cpu left after / 128 cores + 0.5 × GPU left after / 8 GPUs])}, truncated to an integer. Not an
 * Arranger policy; the simulator registers it beside the built-in plugins.
 */
public final class OpenbBestFit {

  public static final String NAME = "openb-bestfit";

  private static final double MAX_MILLI_CPU = 128_000;
  private static final double MAX_MILLI_GPU = 8_000;

  private OpenbBestFit() {}

  public static PluginDescriptor descriptor() {
    return new PluginDescriptor(
        NAME,
        ArgumentSchema.of(),
        arguments ->
            (session, hooks) -> {
              int gpu = session.dimensions().indexOf(Resource.GPU);
              hooks.nodeScore((task, node) -> score(task, node, gpu), 1);
            });
  }

  static double score(TaskState task, NodeState node, int gpu) {
    double cpuLeft =
        node.idle(ResourceDimensions.CPU) - (double) task.request(ResourceDimensions.CPU);
    double gpuLeft = gpu < 0 ? 0 : node.idle(gpu) - (double) task.request(gpu);
    double share = 0.5 * cpuLeft / MAX_MILLI_CPU + 0.5 * gpuLeft / MAX_MILLI_GPU;
    return (long) ((1 - share) * 100);
  }
}
