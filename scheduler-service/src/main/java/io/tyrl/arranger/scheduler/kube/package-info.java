/**
 * The scheduler's Kubernetes edge: informers over nodes, pods, TYJobs and Queues become a snapshot
 * ({@code SnapshotAssembler}, {@code JobReader}, {@code QueueReader}); the {@code SchedulingLoop}
 * runs a cycle of the core when something changed; the decisions are written back, fenced by
 * leadership, as TYJob status ({@code ScheduleStatusWriter}) and Queue status ({@code
 * QueueStatusWriter}); the configuration is read from its ConfigMap; {@code SchedulerMetrics}
 * measures it all.
 *
 * <p>Start at {@code SchedulingLoop}.
 */
package io.tyrl.arranger.scheduler.kube;
