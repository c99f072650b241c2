package io.tyrl.arranger.scheduler.plugins.nodeorder;

import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.ArgumentSpec;
import io.tyrl.arranger.scheduler.conf.Arguments;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.Plugin;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PluginHooks;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.SessionFunctions.ScoreContextFn;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Scores nodes by the job's {@code basicPolicy}, or {@code defaultPolicy} when the job sets none.
 * {@code Gang} is an admission rule (all pods or none, enforced by the gang plugin), not a node
 * order: Gang jobs are ordered by {@code gangPolicy}. The formulas are on each policy class;
 * resource weights ({@code cpu.weight}, {@code memory.weight}, {@code gpu.weight}) and
 * LeaderFirst's boosts are arguments, and {@code weight} scales this plugin's score against other
 * scoring plugins.
 *
 * <p>The node orders are registered here by their name in the CRD's {@code basicPolicy} enum
 * ({@link #REGISTRY}). Each job's name is looked up once when the session opens; a name no policy
 * is registered under makes the job invalid, saying so, rather than ordering it some other way.
 */
public final class NodeOrderPlugin implements Plugin {

  public static final String NAME = "nodeorder";

  /** What a policy is built from, once per session that has a job ordered by it. */
  record PolicyInputs(
      Session session, Arguments arguments, ResourceWeights weights, BinPackPolicy binPack) {}

  /** A node order: its name in the CRD's {@code basicPolicy} enum, and how a session builds it. */
  private record Registration(BasicPolicy policy, Function<PolicyInputs, NodeOrderPolicy> build) {

    Registration(String name, Function<PolicyInputs, NodeOrderPolicy> build) {
      this(new BasicPolicy(name), build);
    }
  }

  /** The default node order, for jobs that name none and for Gang jobs. */
  private static final BasicPolicy BIN_PACK = new BasicPolicy("BinPack");

  /**
   * Every node order. A new one is its {@code NodeOrderPolicy} record, its name in the CRD's {@code
   * basicPolicy} enum, and one entry here.
   */
  private static final List<Registration> REGISTRY =
      List.of(
          new Registration(BIN_PACK, PolicyInputs::binPack),
          new Registration(BasicPolicy.LEADER_FIRST, NodeOrderPlugin::leaderFirst),
          new Registration("MinFragment", inputs -> new MinFragmentPolicy(inputs.binPack())),
          new Registration("JobAffinity", inputs -> new JobAffinityPolicy(inputs.binPack())),
          new Registration(
              "JobAntiAffinity", inputs -> new JobAntiAffinityPolicy(inputs.binPack())));

  /** The node orders, as registered: what {@code defaultPolicy} and {@code gangPolicy} accept. */
  public static final List<BasicPolicy> NODE_ORDERS =
      REGISTRY.stream().map(Registration::policy).toList();

  /** Every {@code basicPolicy} a job may name: Gang, then the node orders. */
  public static final List<BasicPolicy> BASIC_POLICIES =
      Stream.concat(Stream.of(BasicPolicy.GANG), NODE_ORDERS.stream()).toList();

  private static final Map<BasicPolicy, Integer> REGISTRY_INDEX =
      IntStream.range(0, REGISTRY.size())
          .boxed()
          .collect(Collectors.toUnmodifiableMap(i -> REGISTRY.get(i).policy(), i -> i));

  public static final ArgumentSpec<Double> WEIGHT = ArgumentSpec.decimal("weight", 1, 0, 1000);
  public static final ArgumentSpec<BasicPolicy> DEFAULT_POLICY =
      ArgumentSpec.oneOf("defaultPolicy", BIN_PACK, NODE_ORDERS, BasicPolicy::name);
  public static final ArgumentSpec<BasicPolicy> GANG_POLICY =
      ArgumentSpec.oneOf("gangPolicy", BIN_PACK, NODE_ORDERS, BasicPolicy::name);
  public static final ArgumentSpec<Integer> CPU_WEIGHT =
      ArgumentSpec.integer("cpu.weight", 1, 0, 100);
  public static final ArgumentSpec<Integer> MEMORY_WEIGHT =
      ArgumentSpec.integer("memory.weight", 1, 0, 100);
  public static final ArgumentSpec<Integer> GPU_WEIGHT =
      ArgumentSpec.integer("gpu.weight", 1, 0, 100);
  public static final ArgumentSpec<Integer> LEADER_GPU_BOOST =
      ArgumentSpec.integer("leaderFirst.gpuBoost", 3, 1, 100);
  public static final ArgumentSpec<Integer> WORKER_CPU_BOOST =
      ArgumentSpec.integer("leaderFirst.cpuBoost", 3, 1, 100);

  /**
   * A floor, in percent of the GPU nodes, under the idle nodes LeaderFirst keeps for pods only an
   * idle node can hold; 0 (the default) keeps only as many as such pods pending need.
   */
  public static final ArgumentSpec<Integer> LEADER_IDLE_NODE_RESERVE =
      ArgumentSpec.integer("leaderFirst.idleNodeReserve", 0, 0, 100);

  /**
   * How much the growth of GPU fragmentation ({@link GpuFragmentation}) counts against every node
   * order's score: {@code weight × 100} points per GPU of expected fragmentation a placement adds;
   * 0 leaves node orders as they were.
   */
  public static final ArgumentSpec<Integer> GPU_FRAGMENT_WEIGHT =
      ArgumentSpec.integer("gpuFragment.weight", 1, 0, 1000);

  private final Arguments arguments;
  private Session session;
  private int gpuFragmentWeight;
  private GpuFragmentation gpuFragmentation;
  private boolean gpuFragmentationMeasured;

  /**
   * Each job's node order by {@link JobState#index()}, so scoring a node is an array read; null for
   * an unknown name.
   */
  private NodeOrderPolicy[] byJob;

  NodeOrderPlugin(Arguments arguments) {
    this.arguments = arguments;
  }

  public static PluginDescriptor descriptor() {
    return new PluginDescriptor(
        NAME,
        ArgumentSchema.of(
            WEIGHT,
            DEFAULT_POLICY,
            GANG_POLICY,
            CPU_WEIGHT,
            MEMORY_WEIGHT,
            GPU_WEIGHT,
            LEADER_GPU_BOOST,
            WORKER_CPU_BOOST,
            LEADER_IDLE_NODE_RESERVE,
            GPU_FRAGMENT_WEIGHT),
        NodeOrderPlugin::new);
  }

  @Override
  public void onSessionOpen(Session session, PluginHooks hooks) {
    ResourceWeights weights =
        ResourceWeights.resolve(
            session.dimensions(),
            Resource.GPU,
            arguments.get(CPU_WEIGHT),
            arguments.get(MEMORY_WEIGHT),
            arguments.get(GPU_WEIGHT));
    PolicyInputs inputs = new PolicyInputs(session, arguments, weights, new BinPackPolicy(weights));
    NodeOrderPolicy[] built = new NodeOrderPolicy[REGISTRY.size()];
    List<JobState> jobs = session.jobs();
    byJob = new NodeOrderPolicy[jobs.size()];
    for (JobState job : jobs) {
      Integer order = REGISTRY_INDEX.get(nodeOrderOf(job.info().basicPolicy()));
      if (order != null) {
        if (built[order] == null) {
          built[order] = REGISTRY.get(order).build().apply(inputs);
        }
        byJob[job.index()] = built[order];
      }
    }
    this.session = session;
    this.gpuFragmentWeight = arguments.get(GPU_FRAGMENT_WEIGHT);
    this.gpuFragmentation = null;
    this.gpuFragmentationMeasured = false;
    hooks.jobValid(this::unknownPolicy);
    // A worker's score reads its node, its job's pods there and the session's fixed pod-shape mix;
    // a leader's may read how many GPU nodes are idle (LeaderFirst), so it is never kept.
    hooks.nodeScore(
        this::score, arguments.get(WEIGHT), task -> task.isLeader() ? ScoreContextFn.NOT_KEPT : 0);
  }

  /**
   * The node order a job's {@code basicPolicy} stands for: the default when it names none,
   * gangPolicy for Gang.
   */
  private BasicPolicy nodeOrderOf(BasicPolicy policy) {
    return policy == null
        ? arguments.get(DEFAULT_POLICY)
        : policy.equals(BasicPolicy.GANG) ? arguments.get(GANG_POLICY) : policy;
  }

  private Optional<String> unknownPolicy(JobState job) {
    if (byJob[job.index()] != null) {
      return Optional.empty();
    }
    return Optional.of(
        "basicPolicy '"
            + job.info().basicPolicy()
            + "' is not a policy this scheduler knows; expected one of "
            + BASIC_POLICIES.stream().map(BasicPolicy::name).collect(Collectors.joining(", ")));
  }

  static NodeOrderPolicy leaderFirst(PolicyInputs inputs) {
    Arguments arguments = inputs.arguments();
    return LeaderFirstPolicy.of(
        inputs.weights(),
        arguments.get(LEADER_GPU_BOOST),
        arguments.get(WORKER_CPU_BOOST),
        IdleGpuNodes.followedIn(
            inputs.session(),
            inputs.weights().gpuDimension(),
            arguments.get(LEADER_IDLE_NODE_RESERVE)));
  }

  private double score(TaskState task, NodeState node) {
    double score = byJob[task.job().index()].score(task, node);
    if (gpuFragmentWeight == 0) {
      return score;
    }
    GpuFragmentation fragmentation = gpuFragmentation();
    return fragmentation == null
        ? score
        : score + gpuFragmentWeight * fragmentation.score(task, node);
  }

  /**
   * Measured at the first score, not when the session opens: the mix asks the static filters which
   * nodes admit each pod shape, and every plugin's filters are registered only once all are open.
   */
  private GpuFragmentation gpuFragmentation() {
    if (!gpuFragmentationMeasured) {
      gpuFragmentationMeasured = true;
      gpuFragmentation = GpuFragmentation.of(session, session.dimensions().indexOf(Resource.GPU));
    }
    return gpuFragmentation;
  }
}
