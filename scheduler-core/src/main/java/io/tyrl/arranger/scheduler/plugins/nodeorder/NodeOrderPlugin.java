package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.ArgumentSpec;
import io.tyrl.arranger.scheduler.conf.Arguments;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.Plugin;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PluginHooks;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Scores nodes by the job's {@code basicPolicy}, or {@code defaultPolicy} when the job sets
 * none. {@code Gang} is an admission rule (all pods or none, enforced by the gang plugin), not a node
 * order: Gang jobs are ordered by {@code gangPolicy}. The formulas are on each policy class; resource
 * weights ({@code cpu.weight}, {@code memory.weight}, {@code gpu.weight}) and LeaderFirst's boosts are
 * arguments, and {@code weight} scales this plugin's score against other scoring plugins.
 */
public final class NodeOrderPlugin implements Plugin {

  public static final String NAME = "nodeorder";

  private static final Set<BasicPolicy> NODE_ORDERS = EnumSet.complementOf(EnumSet.of(BasicPolicy.GANG));

  public static final ArgumentSpec<Double> WEIGHT = ArgumentSpec.decimal("weight", 1, 0, 1000);
  public static final ArgumentSpec<BasicPolicy> DEFAULT_POLICY =
      ArgumentSpec.enumeration("defaultPolicy", BasicPolicy.class, BasicPolicy.BIN_PACK, NODE_ORDERS);
  public static final ArgumentSpec<BasicPolicy> GANG_POLICY =
      ArgumentSpec.enumeration("gangPolicy", BasicPolicy.class, BasicPolicy.BIN_PACK, NODE_ORDERS);
  public static final ArgumentSpec<Integer> CPU_WEIGHT = ArgumentSpec.integer("cpu.weight", 1, 0, 100);
  public static final ArgumentSpec<Integer> MEMORY_WEIGHT = ArgumentSpec.integer("memory.weight", 1, 0, 100);
  public static final ArgumentSpec<Integer> GPU_WEIGHT = ArgumentSpec.integer("gpu.weight", 1, 0, 100);
  public static final ArgumentSpec<Integer> LEADER_GPU_BOOST = ArgumentSpec.integer("leaderFirst.gpuBoost", 3, 1, 100);
  public static final ArgumentSpec<Integer> WORKER_CPU_BOOST = ArgumentSpec.integer("leaderFirst.cpuBoost", 3, 1, 100);
  /** Percent of the GPU nodes LeaderFirst keeps idle for whole-node requests; 0 keeps none (the leader rule alone). */
  public static final ArgumentSpec<Integer> LEADER_IDLE_NODE_RESERVE = ArgumentSpec.integer("leaderFirst.idleNodeReserve", 10, 0, 100);

  private final Arguments arguments;
  private final Map<BasicPolicy, NodeOrderPolicy> policies = new EnumMap<>(BasicPolicy.class);
  private final NodeOrderPolicy[] byOrdinal = new NodeOrderPolicy[BasicPolicy.values().length];
  private NodeOrderPolicy defaultPolicy;

  NodeOrderPlugin(Arguments arguments) {
    this.arguments = arguments;
  }

  public static PluginDescriptor descriptor() {
    return new PluginDescriptor(NAME, ArgumentSchema.of(WEIGHT, DEFAULT_POLICY, GANG_POLICY, CPU_WEIGHT, MEMORY_WEIGHT,
        GPU_WEIGHT, LEADER_GPU_BOOST, WORKER_CPU_BOOST, LEADER_IDLE_NODE_RESERVE), NodeOrderPlugin::new);
  }

  @Override
  public void onSessionOpen(Session session, PluginHooks hooks) {
    ResourceWeights weights = ResourceWeights.resolve(session.dimensions(), Resource.GPU, arguments.get(CPU_WEIGHT),
        arguments.get(MEMORY_WEIGHT), arguments.get(GPU_WEIGHT));
    BinPackPolicy binPack = new BinPackPolicy(weights);
    policies.put(BasicPolicy.BIN_PACK, binPack);
    policies.put(BasicPolicy.LEADER_FIRST, LeaderFirstPolicy.of(weights, arguments.get(LEADER_GPU_BOOST), arguments.get(WORKER_CPU_BOOST),
        idleGpuNodes(session, weights.gpuDimension())));
    policies.put(BasicPolicy.MIN_FRAGMENT, new MinFragmentPolicy(binPack));
    policies.put(BasicPolicy.JOB_AFFINITY, new JobAffinityPolicy(binPack));
    policies.put(BasicPolicy.JOB_ANTI_AFFINITY, new JobAntiAffinityPolicy(binPack));
    policies.put(BasicPolicy.GANG, policies.get(arguments.get(GANG_POLICY)));
    defaultPolicy = policies.get(arguments.get(DEFAULT_POLICY));
    policies.forEach((policy, order) -> byOrdinal[policy.ordinal()] = order);
    hooks.nodeScore(this::score, arguments.get(WEIGHT));
  }

  /** The idle GPU nodes, followed through the session, when a reserve is kept and some job is ordered by LeaderFirst. */
  private IdleGpuNodes idleGpuNodes(Session session, int gpuDimension) {
    int reserve = arguments.get(LEADER_IDLE_NODE_RESERVE);
    if (reserve == 0 || gpuDimension < 0 || session.jobs().stream().noneMatch(job -> orderedByLeaderFirst(job.info().basicPolicy()))) {
      return null;
    }
    IdleGpuNodes idle = new IdleGpuNodes(session.nodes(), gpuDimension, reserve);
    session.followPlacements(idle);
    return idle;
  }

  private boolean orderedByLeaderFirst(BasicPolicy policy) {
    BasicPolicy order = policy == null ? arguments.get(DEFAULT_POLICY) : policy == BasicPolicy.GANG ? arguments.get(GANG_POLICY) : policy;
    return order == BasicPolicy.LEADER_FIRST;
  }

  private double score(TaskState task, NodeState node) {
    BasicPolicy policy = task.job().info().basicPolicy();
    return (policy == null ? defaultPolicy : byOrdinal[policy.ordinal()]).score(task, node);
  }
}
