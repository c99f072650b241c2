package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import java.util.Arrays;
import java.util.Objects;

/**
 * The feasible nodes a sampled search for a job's pod weighed, each with its score and the node's
 * change count when scored, kept for the job's next search for a pod of the same shape: the actors
 * of a gang come one after another (the minimum's) or a round of other jobs apart (the elastic
 * ones'), and only the nodes pods went to meanwhile have changed. That search weighs the same nodes
 * again, scoring only those that changed; it is not a fresh sample, so the pods of one shape of a
 * gang are placed among the nodes the first of them was weighed against. Which nodes changed comes
 * from the search's change log, read from where the sample was last brought up to date ({@link
 * #syncedAt}): the nodes that did not change are not visited at all.
 *
 * <p>Sound because a predicate's verdict depends on the node's ledger alone unless it judges pods
 * by their neighbours (then nothing is kept), and because every node score kept says what else it
 * reads ({@link SessionFunctions.ScoreContextFn}). A release or a placement undone (either can make
 * a dropped node feasible again), or a change of anything a score reads beyond the node, makes the
 * next search take a fresh sample; so does the sample's thinning below half the feasible nodes a
 * search wants.
 */
final class KeptSample {

  private JobState job;
  private PlacementConstraints constraints;
  private long[] request;
  private String role;
  private long[] context;
  private long[] generation;
  private int percentage;
  private int minimum;
  private int wanted;
  private boolean valid;
  private int syncedAt;
  private int stampedAs = -1;
  private int dropped;

  private int size;
  private int[] nodes = new int[0];
  private double[] scores = new double[0];
  private long[] changes = new long[0];

  /**
   * True when the sample was taken for a pod of this shape, under this context, with no release or
   * placement undone since ({@code generation}).
   */
  boolean matches(TaskState task, long[] context, long[] generation, int percentage, int minimum) {
    return valid
        && job == task.job()
        && constraints == task.info().constraints()
        && Objects.equals(role, task.info().roleName())
        && Arrays.equals(this.generation, generation)
        && this.percentage == percentage
        && this.minimum == minimum
        && Arrays.equals(request, task.request())
        && Arrays.equals(this.context, context);
  }

  /** Starts a new sample for a search for {@code task}; the nodes come with {@link #add}. */
  void start(
      TaskState task,
      long[] context,
      long[] generation,
      int percentage,
      int minimum,
      int wanted,
      int changeLogSize) {
    this.job = task.job();
    this.constraints = task.info().constraints();
    this.request = task.request().clone();
    this.role = task.info().roleName();
    this.context = context;
    this.generation = generation;
    this.percentage = percentage;
    this.minimum = minimum;
    this.wanted = wanted;
    this.valid = true;
    this.syncedAt = changeLogSize;
    this.stampedAs = -1;
    this.dropped = 0;
    this.size = 0;
    // A search offers the feasible nodes it wants and the job's own nodes: sized for that, the
    // sample rarely grows, and a job's arrays stay near what it keeps.
    if (nodes.length < wanted + HEADROOM) {
      nodes = new int[wanted + HEADROOM];
      scores = new double[wanted + HEADROOM];
      changes = new long[wanted + HEADROOM];
    }
  }

  /** Room beyond the wanted nodes for the job's own nodes, which a search offers first. */
  private static final int HEADROOM = 16;

  void add(NodeState node, double score) {
    if (size == nodes.length) {
      int grown = Math.max(HEADROOM, size + size / 2);
      nodes = Arrays.copyOf(nodes, grown);
      scores = Arrays.copyOf(scores, grown);
      changes = Arrays.copyOf(changes, grown);
    }
    nodes[size] = node.index();
    scores[size] = score;
    changes[size] = node.changes();
    size++;
  }

  int size() {
    return size;
  }

  int node(int i) {
    return nodes[i];
  }

  double score(int i) {
    return scores[i];
  }

  long changes(int i) {
    return changes[i];
  }

  /** Where in the search's change log the sample was last brought up to date. */
  int syncedAt() {
    return syncedAt;
  }

  void syncedAt(int changeLogSize) {
    syncedAt = changeLogSize;
  }

  /**
   * The search's stamp under which the sample's nodes were last marked, or -1 when they must be
   * marked again (a fresh sample, or entries moved by {@link #compactIfThin}).
   */
  int stampedAs() {
    return stampedAs;
  }

  void stampedAs(int stamp) {
    stampedAs = stamp;
  }

  /**
   * Drops entry {@code i}: its node is no longer feasible for the shape. The entry stays in place
   * (the search's marks point at entries by position) until {@link #compactIfThin}.
   */
  void drop(int i) {
    nodes[i] = DROPPED;
    dropped++;
  }

  /**
   * Removes the dropped entries, keeping the order, once a quarter of the entries are dropped: the
   * entries move, so the sample must be marked again.
   */
  void compactIfThin() {
    if (4 * dropped <= size) {
      return;
    }
    int alive = 0;
    for (int i = 0; i < size; i++) {
      if (nodes[i] != DROPPED) {
        nodes[alive] = nodes[i];
        scores[alive] = scores[i];
        changes[alive] = changes[i];
        alive++;
      }
    }
    size = alive;
    dropped = 0;
    stampedAs = -1;
  }

  /**
   * False when fewer than half the feasible nodes a search wants are left: the search then takes a
   * fresh sample, which replaces this one.
   */
  boolean thickEnough() {
    return 2 * (size - dropped) >= wanted;
  }

  boolean isDropped(int i) {
    return nodes[i] == DROPPED;
  }

  private static final int DROPPED = -1;

  /** Entry {@code i}'s node changed and was scored again: its score and change count now. */
  void rescored(int i, double score, long nodeChanges) {
    scores[i] = score;
    changes[i] = nodeChanges;
  }
}
