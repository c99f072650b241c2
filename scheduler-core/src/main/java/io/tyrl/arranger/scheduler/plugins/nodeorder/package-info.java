/**
 * The node-order plugin and its policies: each {@code NodeOrderPolicy} scores a node for a task
 * (bin-packing, minimal fragmentation, job affinity and anti-affinity, the learner first), and
 * {@code NodeOrderPlugin} weighs the configured policies into one score.
 *
 * <p>A new policy is one record implementing {@code NodeOrderPolicy}, one entry in {@code
 * NodeOrderPlugin}'s registry under its name, and that name in the CRD's {@code basicPolicy} enum;
 * the core, the scheduler service and the simulator read the names from the registry.
 */
package io.tyrl.arranger.scheduler.plugins.nodeorder;
