/**
 * The operator's view of the last cycle, as plain immutable values: the queue tree with each
 * queue's guarantee, fair share and allocation, the waiting jobs of each queue in the order the
 * next cycle considers them (with the reason and message their status carries), the nodes with what
 * is allocated on them, and the recent evictions. Built from what the cycle already computed (its
 * snapshot and result); no Kubernetes client, no Spring.
 */
package io.tyrl.arranger.scheduler.view;
